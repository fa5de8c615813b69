// JSON with the line of every value, so a build error can point at the field it is about.
// Hand-written because JSON.parse keeps no positions and reports some syntax errors with no
// offset at all (a stray "}" says only "is not valid JSON"); none of our dependencies maps
// JSON to lines, and JSON's grammar is small enough to read in full here.

export class JsonSyntaxError extends Error {
  constructor(line, message) {
    super(message);
    this.name = 'JsonSyntaxError';
    this.line = line;
  }
}

// eslint-disable-next-line no-control-regex -- JSON strings may not hold raw control characters
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;

// Returns the root node. A node is { line, value } plus `members` (Map key -> node, whose line
// is the key's) for an object or `items` (nodes) for an array.
export function parseJsonLines(text) {
  let pos = 0;
  let line = 1;
  const got = () => (pos < text.length ? `"${text[pos]}"` : 'the end of the file');
  const fail = (message) => {
    throw new JsonSyntaxError(line, `${message}, got ${got()}`);
  };
  const space = () => {
    while (pos < text.length && ' \t\r\n'.includes(text[pos])) {
      if (text[pos] === '\n') line += 1;
      pos += 1;
    }
  };
  const token = (pattern) => {
    pattern.lastIndex = pos;
    const match = pattern.exec(text);
    if (!match) return null;
    pos += match[0].length;
    return match[0];
  };
  const string = () => {
    const raw = token(STRING);
    if (raw === null) fail('expected a string in double quotes (closed on its line, with valid escapes)');
    return JSON.parse(raw);
  };

  function list(close, member) {
    pos += 1;
    space();
    if (text[pos] === close) {
      pos += 1;
      return;
    }
    for (;;) {
      member();
      space();
      if (text[pos] === close) break;
      if (text[pos] !== ',') fail(`expected "," or "${close}" after a value`);
      pos += 1;
      space();
      if (text[pos] === close) fail('a trailing comma: expected another value');
    }
    pos += 1;
  }

  function value() {
    space();
    const node = { line };
    const c = text[pos];
    if (c === '{') {
      node.members = new Map();
      node.value = {};
      list('}', () => {
        const keyLine = line;
        const key = string();
        space();
        if (text[pos] !== ':') fail(`expected ":" after "${key}"`);
        pos += 1;
        const member = value();
        node.members.set(key, { ...member, line: keyLine });
        node.value[key] = member.value;
      });
    } else if (c === '[') {
      node.items = [];
      list(']', () => node.items.push(value()));
      node.value = node.items.map((item) => item.value);
    } else if (c === '"') {
      node.value = string();
    } else {
      const raw = token(NUMBER) ?? token(LITERAL);
      if (raw === null) fail('expected a value (an object, list, string, number, true, false or null)');
      node.value = JSON.parse(raw);
    }
    return node;
  }

  const root = value();
  space();
  if (pos < text.length) fail('expected the end of the file after the top-level value');
  return root;
}

// The node reached by following `path` (keys and list indices) as far as it goes, and whether
// it went all the way.
export function nodeAt(root, path) {
  let node = root;
  for (const [i, step] of path.entries()) {
    const next = typeof step === 'number' ? node.items?.[step] : node.members?.get(step);
    if (!next) return { node, complete: false, depth: i };
    node = next;
  }
  return { node, complete: true, depth: path.length };
}
