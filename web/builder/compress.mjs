// Precompressed copies of the site's text and WebAssembly files (FILE.gz and FILE.br beside
// FILE), made once at build time with node:zlib, so the server only picks one (serve.mjs) and
// never compresses per request. Fonts (woff2) are compressed already and are left alone.
//
// Brotli at its best quality takes about 15 s over the whole site, most of it on the engine's
// .wasm, which changes only when the engine does: each output is kept in a cache by the SHA-256
// of its input, so a rebuild recompresses only what changed.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const COMPRESSIBLE = /\.(html|css|js|mjs|json|svg|wasm|txt)$/;
const MIN_BYTES = 512; // below this a compressed copy saves less than its headers cost
const WEEK_MS = 7 * 24 * 3600 * 1000;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const ENCODERS = {
  br: (data) => brotli(data, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  }),
  gz: (data) => gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION }),
};

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(file);
    else if (COMPRESSIBLE.test(entry.name)) yield file;
  }
}

async function compressed(data, encoding, cacheDir) {
  const key = crypto.createHash('sha256').update(data).digest('hex');
  const cached = cacheDir && path.join(cacheDir, `${key}.${encoding}`);
  if (cached && fs.existsSync(cached)) {
    const now = new Date();
    fs.utimesSync(cached, now, now); // still in use: keep it past the next prune
    return fs.readFileSync(cached);
  }
  const out = await ENCODERS[encoding](data);
  if (cached) {
    // Written under a temporary name first: two builds at once never read half a file.
    const tmp = `${cached}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, out);
    fs.renameSync(tmp, cached);
  }
  return out;
}

// Removes cache entries unused for a week (a file's mtime is its last use).
export function prune(cacheDir) {
  const now = Date.now();
  for (const name of fs.readdirSync(cacheDir)) {
    const file = path.join(cacheDir, name);
    if (now - fs.statSync(file).mtimeMs > WEEK_MS) fs.rmSync(file, { force: true });
  }
}

// Writes FILE.br and FILE.gz beside each compressible FILE under `dir` that they make smaller.
// Returns [{ file, bytes, br, gz }] (sizes in bytes; br or gz null when not written).
export async function precompress(dir, { cacheDir = null } = {}) {
  if (cacheDir) {
    fs.mkdirSync(cacheDir, { recursive: true });
    prune(cacheDir);
  }
  const jobs = [...files(dir)].map(async (file) => {
    const data = fs.readFileSync(file);
    const row = { file: path.relative(dir, file), bytes: data.length, br: null, gz: null };
    if (data.length < MIN_BYTES) return row;
    for (const encoding of ['br', 'gz']) {
      const out = await compressed(data, encoding, cacheDir);
      if (out.length >= data.length) continue;
      fs.writeFileSync(`${file}.${encoding}`, out);
      row[encoding] = out.length;
    }
    return row;
  });
  return Promise.all(jobs);
}
