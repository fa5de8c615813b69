// Shared browser-test setup: the built site served on a free port, and Debian's Chromium
// driven by playwright-core (never a downloaded browser). Screenshots go to test-results/.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../../web/builder/serve.mjs';
import { buildSite } from '../../web/builder/build.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SHOTS = path.join(ROOT, 'test-results');

const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function start() {
  const dist = path.join(ROOT, 'dist');
  if (!fs.existsSync(path.join(dist, '01-roofline.html'))) await buildSite({ out: dist });
  return launch(dist);
}

// A site of one page built from `markdown` as section `slug` (so a widget's test does not
// depend on the chapters being written); served and opened like start()'s.
export async function startScratch(slug, markdown) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scalebook-scratch-'));
  fs.mkdirSync(path.join(dir, 'chapters'));
  fs.mkdirSync(path.join(dir, 'exercises'));
  fs.writeFileSync(path.join(dir, 'chapters/toc.json'), JSON.stringify({
    title: 'T', subtitle: 'S', sections: [{ number: 1, slug, title: 'Scratch', summary: 'x', file: 'x.md' }],
  }));
  fs.writeFileSync(path.join(dir, 'chapters/x.md'), markdown);
  const out = path.join(dir, 'dist');
  await buildSite({ chaptersDir: path.join(dir, 'chapters'), exercisesDir: path.join(dir, 'exercises'), out });
  return launch(out);
}

// A pointer moves over the page's first element that uses the engine, once every element on the
// page is defined (so the page is listening).
export async function reach(page) {
  await page.waitForFunction(() => [...document.querySelectorAll('*')]
    .filter((el) => el.localName.startsWith('sb-')).every((el) => customElements.get(el.localName)));
  await page.evaluate(() => {
    const first = [...document.querySelectorAll('*')].find((el) => el.localName.startsWith('sb-') && el.localName !== 'sb-progress');
    first?.dispatchEvent(new PointerEvent('pointerover', { bubbles: true, composed: true }));
  });
}

async function launch(dist) {
  const server = await serve({ dir: dist, port: 0 });
  // playwright gives every launch a fresh, empty profile of its own.
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: FLAGS,
  });
  fs.mkdirSync(SHOTS, { recursive: true });
  const base = `http://127.0.0.1:${server.address().port}`;
  return {
    base,
    browser,
    // A page that records console errors and uncaught exceptions. A page's engine comes when the
    // reader gets to one of its elements (web/runtime/core/wake.js): by default the page is opened
    // as by a reader whose pointer has moved over the first, so its widgets go live; `reached:
    // false` leaves it as a first visit (the engine-loading tests do their own).
    async open(url, viewport = { width: 1280, height: 900 }, { reached = true } = {}) {
      const page = await browser.newPage({ viewport });
      const errors = [];
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('response', (r) => { if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`); });
      await page.goto(`${base}/${url}`);
      if (reached) await reach(page);
      return { page, errors };
    },
    async stop() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
