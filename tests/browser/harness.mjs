// Shared browser-test setup: the built site served on a free port, and Debian's Chromium
// driven by playwright-core (never a downloaded browser). Screenshots go to test-results/.
import fs from 'node:fs';
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
    // A page that records console errors and uncaught exceptions.
    async open(url, viewport = { width: 1280, height: 900 }) {
      const page = await browser.newPage({ viewport });
      const errors = [];
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('response', (r) => { if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`); });
      await page.goto(`${base}/${url}`);
      return { page, errors };
    },
    async stop() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
