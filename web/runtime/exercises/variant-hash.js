// Exercise variants in the URL hash: "#ex-ID=SEED", several joined by "&"
// ("#ex-a=5&ex-b=9"). Anything else in the hash (a plain anchor such as "#intro") is left alone.
// Pure string functions; the element reads and writes location itself.

// The engine's seed range (parse_seed in engine/src/exercises), checked against it by
// tests/node/exercises.test.mjs: a page reads seeds from its URL before the engine loads.
export const MAX_SEED = 4294967295;

// A seed from text: a whole number 0..4294967295, else null.
export function parseSeed(text) {
  if (!/^\d{1,10}$/.test(String(text ?? '').trim())) return null;
  const seed = Number(String(text).trim());
  return seed <= MAX_SEED ? seed : null;
}

function entries(hash) {
  const body = String(hash ?? '').replace(/^#/, '');
  if (!body.startsWith('ex-')) return [];
  return body.split('&').map((pair) => {
    const at = pair.indexOf('=');
    return at < 0 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
  });
}

// What the hash says about exercise `id`: { present, seed (number or null), raw (the text) }.
export function seedFromHash(hash, id) {
  for (const [key, value] of entries(hash)) {
    if (key !== `ex-${id}`) continue;
    let raw = value;
    try {
      raw = decodeURIComponent(value);
    } catch {
      // A malformed escape is just more garbage to report.
    }
    return { present: true, seed: parseSeed(raw), raw };
  }
  return { present: false, seed: null, raw: '' };
}

// The hash with exercise `id` set to `seed`, keeping the other exercises' entries.
// A plain anchor is replaced: a hash holds either an anchor or variants.
export function hashWithSeed(hash, id, seed) {
  const kept = entries(hash).filter(([key]) => key.startsWith('ex-'));
  const at = kept.findIndex(([key]) => key === `ex-${id}`);
  if (at >= 0) kept[at] = [`ex-${id}`, String(seed)];
  else kept.push([`ex-${id}`, String(seed)]);
  return `#${kept.map(([key, value]) => `${key}=${value}`).join('&')}`;
}

// A random variant seed, 1..4294967295.
export function randomSeed() {
  const buffer = new Uint32Array(1);
  do crypto.getRandomValues(buffer); while (buffer[0] === 0);
  return buffer[0];
}
