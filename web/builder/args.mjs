// Directive arguments: `name key=value key="a value with spaces" | format`.
// A value in double quotes may hold spaces (array="A[I_XY, J]"); the quotes are dropped.
// `unclosed` is true when a quote opens and never closes.
const WORD = /[^\s"]*"[^"]*"[^\s"]*|[^\s"]*"[^"]*$|[^\s"]+/g;

export function parseArgs(text) {
  const words = text.trim().match(WORD) ?? [];
  const positional = [];
  const named = {};
  const duplicates = [];
  let unclosed = false;
  for (const word of words) {
    if ((word.match(/"/g) ?? []).length % 2) unclosed = true;
    const eq = word.indexOf('=');
    if (eq <= 0 || word.startsWith('"')) {
      positional.push(word);
      continue;
    }
    const key = word.slice(0, eq);
    if (Object.hasOwn(named, key)) duplicates.push(key);
    const value = word.slice(eq + 1);
    named[key] = /^".*"$/.test(value) ? value.slice(1, -1) : value;
  }
  return { positional, named, duplicates, unclosed };
}
