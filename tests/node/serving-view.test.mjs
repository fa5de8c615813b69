// The serving pictures (inference/serving-view.js) from the WASM engine's run: the fields show
// the engine's defaults, the charts and the timeline hold the run's points, the time line and
// the figures follow a frame, a run that does not fit says why, and nothing carries a style
// attribute (the pages' CSP forbids inline styles).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../bindings/wasm/engine.mjs';
import { useEngine } from '../../web/runtime/core/format.js';
import { runServing, servingHTML, picturesHTML, frameView, frameCount, nowX } from '../../web/runtime/inference/serving-view.js';
import { ELEMENTS } from '../../web/runtime/domains.js';

const engine = await loadEngine();
useEngine(engine);

test('the form shows the engine\'s defaults and the pictures hold every point of the run', () => {
  const sim = runServing(engine, { requests: '300', rate: '' });
  assert.equal(frameCount(sim), 120);
  const html = servingHTML({ values: { requests: '300' }, sim });
  assert.doesNotMatch(html, /\sstyle=/);
  // Blank fields show the run's own value as their placeholder, the edited one its text.
  assert.match(html, new RegExp(`name="rate"[^>]*value=""[^>]*placeholder="${sim.inputs.rate}"`));
  assert.match(html, /name="requests"[^>]*value="300"/);
  assert.match(html, /<option value="continuous" selected>/);
  // Two series of 120 points, one of 120, and a timeline row per reported request.
  const lines = [...html.matchAll(/<polyline class="series (\w+)" points="([^"]*)"/g)];
  assert.deepEqual(lines.map(([, cls]) => cls), ['queue', 'active', 'tokens']);
  for (const [, , points] of lines) assert.equal(points.split(' ').length, 120);
  assert.equal([...html.matchAll(/<rect class="decode"/g)].length, 40);
  assert.equal([...html.matchAll(/role="img"/g)].length, 3);
  // The percentiles table: three rows, four columns, the engine's p50 TTFT in its cell.
  assert.match(html, /<th scope="row">Time to first token<\/th><td>[^<]+<\/td>/);
});

test('a frame moves the time line and the figures to its point of the series', () => {
  const sim = runServing(engine, { requests: '300' });
  const i = 60;
  const f = frameView(sim, i);
  assert.equal(f.queue, String(sim.series.queue[i]));
  assert.match(f.valuetext, /^time .+ waiting, .+ slots busy$/);
  const x = nowX(sim, i);
  assert.ok(x > 64 && x < 708);
  assert.match(picturesHTML(sim, i), new RegExp(`data-now x1="${x}"`));
});

test('a run that does not fit in HBM says why instead of drawing', () => {
  const sim = runServing(engine, { prompt_dist: 'fixed', prompt: '1000000' });
  assert.equal(sim.fits, false);
  assert.match(picturesHTML(sim), /^<p class="sim-empty">Nothing to serve: a request of up to 1002048 tokens needs/);
  assert.equal(frameCount(sim), 1);
});

test('<sb-serving> is the inference domain\'s, loaded from its own file', () => {
  assert.equal(ELEMENTS['sb-serving'].domain, 'inference');
  assert.equal(ELEMENTS['sb-serving'].engineDomain, 'inference');
  assert.equal(ELEMENTS['sb-serving'].calculator, null);
});
