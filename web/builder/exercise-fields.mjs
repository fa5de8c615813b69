// The line of the field an engine error is about, in an exercise file. The engine names the
// field ("parts[0].unit", "parts.b.book", "params.chip.book") but not always to the last key:
// a part's own problems come as "parts.a" with the key in the message ('unit "ms" does not
// measure ...'), and a calculator's complaint about an input names only the input ("chip").
import { nodeAt } from './json-lines.mjs';

// "parts[0].unit" -> ['parts', 0, 'unit']; "parts.a.book" -> ['parts', 'a', 'book'].
function splitField(field) {
  return String(field ?? '').split(/\.|(?=\[)/).filter(Boolean)
    .map((step) => (/^\[\d+\]$/.test(step) ? Number(step.slice(1, -1)) : step));
}

// A part is named by its id, which defaults to its letter (a, b, ...).
function partIndex(parts, name) {
  const byId = parts.findIndex((p) => p?.id === name);
  if (byId >= 0) return byId;
  const letter = /^[a-z]$/.test(name) ? name.charCodeAt(0) - 97 : -1;
  return letter >= 0 && letter < parts.length && parts[letter]?.id === undefined ? letter : -1;
}

function pathOf(exercise, field, message) {
  const path = splitField(field);
  const parts = Array.isArray(exercise.parts) ? exercise.parts : [];
  if (path[0] === 'parts' && typeof path[1] === 'string') {
    const index = partIndex(parts, path[1]);
    if (index >= 0) path[1] = index;
  }
  if (path.length !== 1 || Object.hasOwn(exercise, path[0])) return path;
  // A bare input name: the calculator of a part ("part b: ...") or of a value rejected it.
  const part = /^part (\S+?):/.exec(message)?.[1];
  const index = part === undefined ? -1 : partIndex(parts, part);
  if (index >= 0) return ['parts', index, 'inputs', path[0]];
  const value = Object.entries(exercise.values ?? {}).find(([, v]) => Object.hasOwn(v?.inputs ?? {}, path[0]));
  return value ? ['values', value[0], 'inputs', path[0]] : [];
}

// The key of `node` that the message names first, as a whole word, if any.
function keyNamed(node, message) {
  let best = null;
  for (const key of node.members?.keys() ?? []) {
    const at = message.search(new RegExp(`(^|[^\\w.])${key}\\b`));
    if (at >= 0 && (best === null || at < best.at)) best = { key, at };
  }
  return best?.key;
}

// exerciseNode: the exercise's node from parseJsonLines; field and message: the engine's.
export function fieldLine(exerciseNode, field, message) {
  const own = message.replace(/^exercise \S+: /, '');
  const path = pathOf(exerciseNode.value, field, own);
  const { node, complete } = nodeAt(exerciseNode, path);
  if (!complete || !node.members) return node.line;
  const rest = own.replace(/^part \S+?:? /, '');
  const key = keyNamed(node, rest);
  return key ? node.members.get(key).line : node.line;
}
