// Page weight: what a first visit to each page of dist/ transfers, as Chromium fetches it from
// scripts/serve's server (a fresh profile, so nothing is cached), by kind: HTML, CSS, JS, WASM,
// fonts. "wire" is the body bytes as sent (compressed when the server compresses), "raw" the
// bytes once decoded. The engine and an element's code come only once the reader scrolls to an
// element or reaches for one (web/runtime/index.js), so "read through" is everything fetched
// after then scrolling the whole page a screen at a time: the page with every calculator live.
// Prints figures; asserts nothing (the goal, under 300 kB per chapter page, is read off the
// table, never tested).
// Usage: node bench/page_weight.mjs [--build] [--files] [PAGE...]   (--build rebuilds dist/ first;
// --files lists each file fetched; PAGE, e.g. 05-training.html, measures only those pages)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../web/builder/serve.mjs';
import { buildSite } from '../web/builder/build.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(ROOT, 'dist');
if (process.argv.includes('--build') || !fs.existsSync(path.join(dist, 'index.html'))) await buildSite({ out: dist });

const KINDS = ['html', 'css', 'js', 'wasm', 'font', 'other'];
function kindOf(url) {
  const ext = path.extname(new URL(url).pathname);
  if (ext === '.html' || ext === '') return 'html';
  if (ext === '.css') return 'css';
  if (ext === '.js' || ext === '.mjs') return 'js';
  if (ext === '.wasm') return 'wasm';
  if (/^\.(woff2?|ttf|otf)$/.test(ext)) return 'font';
  return 'other';
}

const server = await serve({ dir: dist, port: 0 });
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});

// One first visit: every response until the network has been idle, with its wire size
// (Chromium's encoded body length) and its decoded size.
async function visit(page, { readThrough = false } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const tab = await context.newPage();
  const responses = [];
  tab.on('requestfinished', (request) => responses.push(request));
  await tab.goto(`${base}/${page}`);
  await tab.waitForLoadState('networkidle');
  if (readThrough) {
    const height = await tab.evaluate(() => globalThis.document.documentElement.scrollHeight);
    for (let y = 0; y < height; y += 800) {
      await tab.evaluate((top) => globalThis.scrollTo(0, top), y);
      await tab.waitForTimeout(30);
    }
    await tab.waitForLoadState('networkidle');
    await tab.waitForTimeout(600);
  }
  const rows = [];
  for (const request of responses) {
    const response = await request.response();
    if (!response) continue;
    const sizes = await request.sizes();
    const body = await response.body().catch(() => Buffer.alloc(0));
    rows.push({
      url: request.url(),
      kind: kindOf(request.url()),
      wire: sizes.responseBodySize,
      raw: body.length,
      encoding: response.headers()['content-encoding'] ?? '',
    });
  }
  await context.close();
  return rows;
}

const kB = (n) => (n / 1000).toFixed(1).padStart(7);
const only = process.argv.slice(2).filter((a) => a.endsWith('.html'));
const pages = fs.readdirSync(dist).filter((f) => f.endsWith('.html') && (!only.length || only.includes(f))).sort();
console.log(`page weight, first visit, kB on the wire (decoded in brackets)`);
console.log(`${'page'.padEnd(22)}${KINDS.slice(0, 5).map((k) => k.padStart(8)).join('')}   total wire    (raw)  requests  encodings   read through`);
const verbose = process.argv.includes('--files');
for (const page of pages) {
  const rows = await visit(page);
  const by = Object.fromEntries(KINDS.map((k) => [k, 0]));
  for (const row of rows) by[row.kind] += row.wire;
  const wire = rows.reduce((s, r) => s + r.wire, 0);
  const raw = rows.reduce((s, r) => s + r.raw, 0);
  const encodings = [...new Set(rows.map((r) => r.encoding || 'identity'))].join(',');
  const all = await visit(page, { readThrough: true });
  const through = all.reduce((s, r) => s + r.wire, 0);
  console.log(`${page.padEnd(22)}${KINDS.slice(0, 5).map((k) => kB(by[k]).padStart(8)).join('')}   ${kB(wire)}    (${kB(raw).trim()})  ${String(rows.length).padStart(8)}  ${encodings.padEnd(12)}${kB(through)}`);
  if (verbose) {
    // The first visit's files, then (marked +) those reading through added.
    const first = new Set(rows.map((r) => r.url));
    for (const r of rows) console.log(`    ${kB(r.wire)} ${kB(r.raw)} ${r.encoding.padEnd(4)} ${r.url.slice(base.length)}`);
    for (const r of all.filter((a) => !first.has(a.url))) console.log(`  + ${kB(r.wire)} ${kB(r.raw)} ${r.encoding.padEnd(4)} ${r.url.slice(base.length)}`);
  }
}
await browser.close();
await new Promise((resolve) => server.close(resolve));
