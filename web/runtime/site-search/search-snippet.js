// The short piece of a section's text a search result shows: cut, at word boundaries, around
// the first place where the most of the matched words are seen together, as pieces marked
// where a matched word starts.

const WIDTH = 150; // characters of text in a snippet, about two lines under the box
const BEFORE = 40; // of them, before the first match

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// A pattern for the words of `terms` (lower case, as MiniSearch reports them) where they start
// a word; null when there are none.
function termPattern(terms) {
  const words = [...new Set(terms)].filter(Boolean).sort((a, b) => b.length - a.length);
  if (!words.length) return null;
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.map(escapeRegExp).join('|')})`, 'giu');
}

// [{ text, match }] covering a snippet of `text` around the first of `terms`, with "…" where
// it is cut.
// Where the window of `width` characters with the most different matched words begins its
// matches (the first such place), or -1 when nothing matches.
function bestMatch(text, pattern, width) {
  const matches = [...text.matchAll(pattern)].slice(0, 500);
  let best = -1;
  let most = 0;
  for (const [i, m] of matches.entries()) {
    const seen = new Set();
    for (let j = i; j < matches.length && matches[j].index < m.index + width - BEFORE; j += 1) {
      seen.add(matches[j][0].toLowerCase());
    }
    if (seen.size > most) [best, most] = [m.index, seen.size];
  }
  return best;
}

export function snippet(text, terms, width = WIDTH) {
  const pattern = termPattern(terms);
  const first = pattern ? bestMatch(text, pattern, width) : -1;
  let start = Math.max(0, first - BEFORE);
  if (start > 0) start = text.indexOf(' ', start) + 1 || start;
  let end = Math.min(text.length, start + width);
  if (end < text.length) end = text.lastIndexOf(' ', end) > start ? text.lastIndexOf(' ', end) : end;
  const cut = text.slice(start, end);
  const pieces = [];
  let at = 0;
  if (pattern) {
    for (const m of cut.matchAll(pattern)) {
      if (m.index > at) pieces.push({ text: cut.slice(at, m.index), match: false });
      pieces.push({ text: m[0], match: true });
      at = m.index + m[0].length;
    }
  }
  if (at < cut.length) pieces.push({ text: cut.slice(at), match: false });
  if (start > 0) pieces.unshift({ text: '…', match: false });
  if (end < text.length) pieces.push({ text: '…', match: false });
  return pieces;
}
