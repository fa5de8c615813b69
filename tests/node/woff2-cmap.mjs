// The characters a woff2 font maps to glyphs, read from its cmap table with node:zlib alone, so
// a test of the build's font subsets does not trust the library that cut them.
import zlib from 'node:zlib';

const KNOWN_TAGS = ['cmap', 'head', 'hhea', 'hmtx', 'maxp', 'name', 'OS/2', 'post', 'cvt ', 'fpgm', 'glyf', 'loca', 'prep'];

function base128(buf, at) {
  let value = 0;
  for (let i = 0; i < 5; i++) {
    const byte = buf[at.pos++];
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) return value;
  }
  throw new Error('bad UIntBase128');
}

// The woff2's tables, decompressed: Map tag -> Buffer (glyf, loca and hmtx may be transformed;
// cmap never is).
function tables(woff2) {
  if (woff2.toString('latin1', 0, 4) !== 'wOF2') throw new Error('not a woff2 file');
  const count = woff2.readUInt16BE(12);
  const compressed = woff2.readUInt32BE(20);
  const at = { pos: 48 };
  const entries = [];
  for (let i = 0; i < count; i++) {
    const flags = woff2[at.pos++];
    let tag = KNOWN_TAGS[flags & 0x3f];
    if ((flags & 0x3f) === 63) { tag = woff2.toString('latin1', at.pos, at.pos + 4); at.pos += 4; }
    const origLength = base128(woff2, at);
    const version = flags >> 6;
    const transformed = tag === 'glyf' || tag === 'loca' ? version === 0 : version !== 0;
    const length = transformed ? base128(woff2, at) : origLength;
    entries.push({ tag, length });
  }
  const data = zlib.brotliDecompressSync(woff2.subarray(at.pos, at.pos + compressed));
  const out = new Map();
  let offset = 0;
  for (const { tag, length } of entries) {
    out.set(tag, data.subarray(offset, offset + length));
    offset += length;
  }
  return out;
}

// Set of the characters (strings) the font's Unicode cmap subtables (format 4 or 12) map.
export function cmapChars(woff2) {
  const cmap = tables(woff2).get('cmap');
  const chars = new Set();
  const add = (code, glyph) => { if (glyph) chars.add(String.fromCodePoint(code)); };
  for (let i = 0; i < cmap.readUInt16BE(2); i++) {
    const sub = cmap.readUInt32BE(4 + i * 8 + 4);
    const format = cmap.readUInt16BE(sub);
    if (format === 4) {
      const segs = cmap.readUInt16BE(sub + 6) / 2;
      const ends = sub + 14;
      const starts = ends + segs * 2 + 2;
      const deltas = starts + segs * 2;
      const ranges = deltas + segs * 2;
      for (let s = 0; s < segs; s++) {
        const end = cmap.readUInt16BE(ends + s * 2);
        const start = cmap.readUInt16BE(starts + s * 2);
        const delta = cmap.readInt16BE(deltas + s * 2);
        const range = cmap.readUInt16BE(ranges + s * 2);
        for (let c = start; c <= end && c !== 0xffff; c++) {
          if (!range) { add(c, (c + delta) & 0xffff); continue; }
          const g = cmap.readUInt16BE(ranges + s * 2 + range + (c - start) * 2);
          add(c, g && (g + delta) & 0xffff);
        }
      }
    } else if (format === 12) {
      for (let g = 0; g < cmap.readUInt32BE(sub + 12); g++) {
        const group = sub + 16 + g * 12;
        const start = cmap.readUInt32BE(group);
        for (let c = start; c <= cmap.readUInt32BE(group + 4); c++) add(c, cmap.readUInt32BE(group + 8) + c - start);
      }
    }
  }
  return chars;
}
