// How long a field edit takes to repaint chapter 5's explorer and FSDP x TP optimizer in
// Chromium (Debian's, driven by playwright-core), as a reader's typing drives them: the input
// event's handlers (the engine's numbers, the outputs, the strip, and the tables and plots of
// the open sections redrawn) plus the style and layout they force, with the field scrolled into
// view, median, 99th percentile and worst of 200 edits a case. An element's sections start
// closed, as a reader finds them; the last cases open them all. The budget is one frame, 16 ms.
// Also counts the calls into the engine's formatter: on the first edit, and on average.
// Prints figures; asserts nothing.
import { start } from '../tests/browser/harness.mjs';

const EDITS = 200;

// A case's last field, when true, opens every section of its element first (its tables and
// plots, which a closed section skips redrawing until it opens).
const CASES = [
  ['explorer (training, LLaMA 3 70B), B', 'sb-training#explorer', 'B', ['4194304', '2097152']],
  ['optimizer 4x4x4, B', 'sb-training-split#optimizer', 'B', ['48000', '4800']],
  ['optimizer 16x16x16, 4 named splits, B', 'sb-training-split#optimizer-pod', 'B', ['1048576', '262144']],
  ['optimizer 16x20x28 (10 splits), shape', 'sb-training-split#optimizer', 'shape', ['16x20x28', '16x16x16']],
  ['optimizer 4x4x4, B, every section open', 'sb-training-split#optimizer', 'B', ['48000', '4800'], true],
  ['optimizer 16x16x16, B, every section open', 'sb-training-split#optimizer-pod', 'B', ['1048576', '262144'], true],
];

const site = await start();
const { page } = await site.open('05-training.html');
await page.waitForFunction(() => document.querySelector('sb-training-split#optimizer')?.shadowRoot?.querySelector('.strip'));
await page.waitForTimeout(1000);
const rows = await page.evaluate(async ({ cases, edits }) => {
  // Calls into the engine's formatter, the page's own engine (the module the page loaded,
  // which loadEngine returns again): a result formats its numbers in one call.
  const script = [...document.scripts].find((s) => /scalebook[^/]*\.js$/.test(s.src));
  const engine = await (await import(script.src)).loadEngine();
  let crossings = 0;
  for (const name of ['format', 'formatMany']) {
    const inner = engine[name].bind(engine);
    engine[name] = (...args) => { crossings += 1; return inner(...args); };
  }
  const out = [];
  for (const [label, host, field, values, open] of cases) {
    const root = document.querySelector(host).shadowRoot;
    for (const details of root.querySelectorAll('details.fold')) details.open = Boolean(open);
    const input = root.querySelector(`[name="${field}"]`);
    // A reader types with the field on screen: what lies near it is laid out, the rest may not be.
    input.scrollIntoView({ block: 'center' });
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    const ms = [];
    const before = crossings;
    let first = 0;
    for (let i = 0; i < edits; i++) {
      input.value = values[i % 2];
      const t0 = performance.now();
      input.dispatchEvent(new Event('input', { bubbles: true }));
      void root.host.getBoundingClientRect().height; // the style and layout the redraw needs
      ms.push(performance.now() - t0);
      if (i === 0) first = crossings - before; // values not formatted before: a cold cache
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    }
    ms.sort((a, b) => a - b);
    for (const details of root.querySelectorAll('details.fold')) details.open = false;
    out.push({ label, median: ms[edits >> 1], p99: ms[Math.floor(edits * 0.99)], worst: ms[edits - 1], first, formats: (crossings - before) / edits });
  }
  return out;
}, { cases: CASES, edits: EDITS });
for (const { label, median, p99, worst, first, formats } of rows) {
  console.log(`chromium repaint ${label.padEnd(44)} median ${median.toFixed(2).padStart(6)} ms  p99 ${p99.toFixed(2).padStart(6)} ms  worst ${worst.toFixed(2).padStart(6)} ms  ` +
    `formatter calls: ${String(first).padStart(3)} first edit, ${formats.toFixed(1)} an edit  (${EDITS} edits, frame 16.7 ms)`);
}
await site.stop();
