// Directive arguments: `name key=value key=value | format`.
export function parseArgs(text) {
  const words = text.trim().split(/\s+/).filter(Boolean);
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
