// Directive arguments: `name key=value key=value | format`.
export function parseArgs(text) {
  // A value with spaces is quoted: array="A[I_XY, J]".
  const words = (text.match(/(?:[^\s"]+|"[^"]*")+/g) ?? []).map((w) => w.replace(/"/g, ''));
  const positional = [];
  const named = {};
  const duplicates = [];
  for (const word of words) {
    const eq = word.indexOf('=');
    if (eq <= 0) {
      positional.push(word);
      continue;
    }
    const key = word.slice(0, eq);
    if (Object.hasOwn(named, key)) duplicates.push(key);
    named[key] = word.slice(eq + 1);
  }
  return { positional, named, duplicates };
}
