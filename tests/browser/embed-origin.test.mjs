// A blogger's page on another origin embeds a calculator with one script tag: the bundle and
// the engine load across origins and the element computes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { start } from './harness.mjs';

let site;
let blog;
before(async () => {
  site = await start();
  blog = http.createServer((req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(`<!doctype html><html lang="en"><title>A blog</title><p>My post.</p>
<script type="module" src="${site.base}/assets/scalebook.js"></script>
<sb-matmul chip="h100" b="512"></sb-matmul>`);
  });
  await new Promise((resolve) => blog.listen(0, 'localhost', resolve));
});
after(async () => {
  await site?.stop();
  await new Promise((resolve) => blog?.close(resolve));
});

test('a calculator embedded on another origin loads the engine and computes', async () => {
  const page = await site.browser.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`http://localhost:${blog.address().port}/`);
  const out = page.locator('sb-matmul [data-output="critical_batch"]');
  await out.waitFor();
  assert.equal((await out.textContent()).trim(), '295 tokens');
  assert.deepEqual(errors, []);
  await page.close();
});
