// What keeps a page light: precompressed copies served by Accept-Encoding, and formulas typeset
// once (KaTeX's HTML with the words for screen readers, not HTML and MathML both).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { precompress } from '../../web/builder/compress.mjs';
import { serve, acceptedEncodings } from '../../web/builder/serve.mjs';
import { renderChapter } from '../../web/builder/markdown.mjs';
import { loadEngine } from '../../bindings/wasm/engine.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scalebook-weight-'));
const page = `<!doctype html><title>t</title>${'<p>the roofline of a matmul</p>\n'.repeat(400)}`;
let server;
let base;

before(async () => {
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), page);
  fs.writeFileSync(path.join(dir, 'assets/tiny.js'), 'export {};');
  fs.writeFileSync(path.join(dir, 'assets/font.woff2'), Buffer.alloc(4000, 7));
  await precompress(dir, { cacheDir: path.join(dir, '.cache') });
  server = await serve({ dir, port: 0 });
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => new Promise((resolve) => server.close(resolve)));

test('the build writes brotli and gzip copies that decode to the file, and none for fonts or tiny files', () => {
  assert.equal(zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, 'index.html.br'))).toString(), page);
  assert.equal(zlib.gunzipSync(fs.readFileSync(path.join(dir, 'index.html.gz'))).toString(), page);
  assert.ok(fs.statSync(path.join(dir, 'index.html.br')).size < page.length / 20);
  assert.ok(!fs.existsSync(path.join(dir, 'assets/font.woff2.br')));
  assert.ok(!fs.existsSync(path.join(dir, 'assets/tiny.js.br')));
});

test('a second build takes the compressed copies from the cache', async () => {
  const other = fs.mkdtempSync(path.join(os.tmpdir(), 'scalebook-weight-'));
  fs.writeFileSync(path.join(other, 'index.html'), page);
  const cached = fs.readdirSync(path.join(dir, '.cache'));
  assert.equal(cached.length, 2);
  await precompress(other, { cacheDir: path.join(dir, '.cache') });
  assert.deepEqual(fs.readdirSync(path.join(dir, '.cache')), cached);
  assert.deepEqual(fs.readFileSync(path.join(other, 'index.html.br')), fs.readFileSync(path.join(dir, 'index.html.br')));
});

async function get(url, acceptEncoding) {
  // fetch() would decode the body and hide its size: read the raw response with node:http.
  const http = await import('node:http');
  return new Promise((resolve, reject) => {
    http.get(`${base}${url}`, { headers: acceptEncoding === null ? {} : { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

test('the server sends brotli, else gzip, else the file, with Content-Encoding and Vary', async () => {
  const br = await get('/index.html', 'gzip, deflate, br');
  assert.equal(br.headers['content-encoding'], 'br');
  assert.equal(br.headers.vary, 'Accept-Encoding');
  assert.equal(br.headers['content-type'], 'text/html;charset=utf-8');
  assert.equal(zlib.brotliDecompressSync(br.body).toString(), page);
  const gz = await get('/index.html', 'gzip');
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.equal(zlib.gunzipSync(gz.body).toString(), page);
  const plain = await get('/index.html', null);
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(plain.headers.vary, 'Accept-Encoding');
  assert.equal(plain.body.toString(), page);
  const font = await get('/assets/font.woff2', 'br');
  assert.equal(font.headers['content-encoding'], undefined);
  assert.equal(font.body.length, 4000);
});

test('a coding refused with q=0 is never sent', async () => {
  assert.deepEqual(acceptedEncodings('br;q=0, gzip;q=0.5, identity'), ['identity', 'gzip']);
  assert.deepEqual(acceptedEncodings(' GZIP ; q=1.0 ,br;q=0.9'), ['gzip', 'br']);
  assert.equal((await get('/index.html', 'br;q=0, gzip')).headers['content-encoding'], 'gzip');
  assert.equal((await get('/index.html', 'br;q=0')).headers['content-encoding'], undefined);
  assert.equal((await get('/index.html', '*')).headers['content-encoding'], 'br');
});

test('a formula is typeset once, as KaTeX HTML, with its words for screen readers', async () => {
  const engine = await loadEngine();
  const md = '# T\n\nThe time is $T_\\text{math} = \\frac{\\text{FLOPs}}{\\text{FLOP/s}}$ here.\n\n$$\n\\sum_i x_i^2 \\le 2\n$$\n';
  const { html } = renderChapter({ engine, exercises: new Map(), placedExercises: new Set() }, md, 'x.md');
  assert.doesNotMatch(html, /<math/);
  assert.equal((html.match(/class="katex-html" aria-hidden="true"/g) ?? []).length, 2);
  assert.match(html, /<span class="katex"><span class="katex-mathml">T sub math equals FLOPs over FLOP\/s<\/span><span class="katex-html"/);
  assert.match(html, /<span class="katex-mathml">the sum over i x sub i squared is at most 2<\/span>/);
});
