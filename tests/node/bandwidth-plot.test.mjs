// The bandwidth-against-size plot (web/runtime/bandwidth-plot.js) fed by the engine's collective
// calculator: what it plots, where it marks the crossover and the 90% point, and what it says.
// Expected numbers are derived by hand from the book's v5e figures (4.5e10 B/s a link one way,
// 1 us a hop) or are the engine evaluated directly at the size the plot reports.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../bindings/wasm/engine.mjs';
import {
  SIZE_MIN, SIZE_MAX, sweepSizes, collectiveRequest, settingsValues, bandwidthSweep, runSweep, readoutInner, reachBytes,
  bandwidthSVG, collectiveSweepHTML, sweepInputs, sweepTitle,
} from '../../web/runtime/collectives/bandwidth-plot.js';
import { si, useEngine } from '../../web/runtime/core/format.js';

let engine;
before(async () => {
  engine = await loadEngine();
  useEngine(engine); // format.js prints with the engine
});

const RING16 = { op: 'all-gather', chip: 'tpu-v5e', shape: '16', wraparound: 'yes' };
const close = (a, b, rel = 1e-9) => assert.ok(Math.abs(a / b - 1) < rel, `${a} vs ${b}`);
const run = (values, bytes) => engine.calculate('collective', { ...collectiveRequest(values), bytes });

test('the form maps to the calculator: one size is axis_size, sizes joined by x are axes', () => {
  assert.deepEqual(collectiveRequest(RING16), { op: 'all-gather', chip: 'tpu-v5e', wraparound: 'yes', axis_size: '16' });
  assert.deepEqual(collectiveRequest({ ...RING16, shape: '8x16', wraparound: '' }), { op: 'all-gather', chip: 'tpu-v5e', axes: '8x16' });
  assert.deepEqual(collectiveRequest({}), {});
  const attrs = { op: 'all-reduce', axis_size: '8' };
  assert.deepEqual(settingsValues((n) => attrs[n]), { op: 'all-reduce', chip: '', shape: '8', wraparound: '' });
  const both = { axes: '4x4', axis_size: '16' };
  assert.equal(settingsValues((n) => both[n]).shape, '4x4');
  const sizes = sweepSizes();
  assert.equal(sizes[0], SIZE_MIN);
  close(sizes.at(-1), SIZE_MAX);
  assert.equal(sizes.length, 73);
});

test('an AllGather around a 16-ring on v5e is latency-bound below the crossover and flattens under the peak', () => {
  const sweep = bandwidthSweep(engine, RING16);
  // Book: two links of 4.5e10 B/s each way; the latency term is 16/2 hops of 1 us, so the terms
  // meet at V = 8e-6 s * 9e10 B/s = 720 kB. Above it a chip sends 15/16 of V in V / 9e10 s.
  assert.equal(sweep.peak, 9e10);
  close(sweep.crossover, 720e3);
  assert.equal(sweep.chips, 16);
  for (const [bytes, bandwidth] of sweep.points) {
    const r = run(RING16, bytes);
    assert.equal(bandwidth, r.achieved_bandwidth);
    if (bytes < sweep.crossover * (1 - 1e-9)) assert.equal(r.bound, 'latency', `${bytes}`);
    else close(bandwidth, 9e10 * 15 / 16);
  }
  const below = sweep.points.filter(([v]) => v < sweep.crossover);
  for (let i = 1; i < below.length; i++) assert.ok(below[i][1] > below[i - 1][1], 'rises with V while latency-bound');
  // The corner is drawn where the engine puts it.
  assert.ok(sweep.points.some(([v]) => v === sweep.crossover));
  assert.ok(sweep.points.every(([, b]) => b <= sweep.peak));
  close(sweep.largest.efficiency, 15 / 16);
});

test('the 90% readout is where the engine crosses 90% of peak', () => {
  const sweep = bandwidthSweep(engine, RING16);
  const bytes = sweep.reach.bytes;
  // By hand: latency-bound, a chip sends 15/16 V in 8 us; 0.9 * 9e10 B/s needs V = 691.2 kB.
  close(bytes, 691200, 1e-6);
  assert.ok(run(RING16, bytes).efficiency >= 0.9);
  assert.ok(run(RING16, bytes * (1 - 1e-6)).efficiency < 0.9);
  assert.equal(reachBytes(sweep), String(bytes));
  const text = readoutInner(sweep);
  assert.ok(text.startsWith(`Reaches 90% of peak at <strong data-per-device>${si(bytes / 16, 'B')} per device</strong>`), text);
  assert.equal(si(bytes / 16, 'B'), '43.2 kB');
  assert.match(text, /\(an array of 691 kB over 16 chips\)\. Latency-bound below 720 kB, bandwidth-bound above\. At 10 GB each chip sends 84\.4 GB\/s, 93\.8% of its 90 GB\/s peak\.$/);
});

test('the SVG draws the engine’s points, the peak, the crossover and the 90% mark', () => {
  const sweep = bandwidthSweep(engine, RING16);
  const svg = bandwidthSVG(sweep, sweepTitle(RING16, engine.chips()));
  assert.match(svg, /^<svg [^>]*role="img"[^>]*><title>all-gather over 16 chips of TPU v5e: bandwidth per chip against array size<\/title>/);
  const d = /<path class="curve" d="([^"]*)"/.exec(svg)[1];
  assert.equal(d.split(/[ML]/).filter(Boolean).length, sweep.points.length);
  assert.doesNotMatch(svg, /NaN|undefined|Infinity/);
  assert.match(svg, new RegExp(`<line class="crossover" data-crossover="${sweep.crossover}"`));
  assert.match(svg, new RegExp(`<circle class="reach" data-bytes="${sweep.reach.bytes}"`));
  assert.match(svg, />peak 90 GB\/s per chip</);
  assert.match(svg, />crossover 720 kB</);
  assert.match(svg, />90%: 43\.2 kB per device</);
  // The peak line sits at 1/1.1 of the plot's height; the flat part of the curve under it.
  const peakY = Number(/<line class="peak" x1="[\d.]+" y1="([\d.]+)"/.exec(svg)[1]);
  const lastY = Number(d.split(',').at(-1));
  assert.ok(lastY > peakY, 'the curve flattens below the peak line');
  for (const tick of ['10 kB', '1 MB', '10 GB']) assert.match(svg, new RegExp(`>${tick}</text>`));
});

test('a ring too short, a GPU without hop latency, and one chip say so in words', () => {
  // A 4-chip v5e axis has no wraparound: a line, where an AllGather reaches half of what a
  // chip could inject on the axis.
  const line = bandwidthSweep(engine, { op: 'all-gather', chip: 'tpu-v5e', shape: '4', wraparound: 'auto' });
  assert.equal(line.reach, null);
  close(line.ceiling, 0.5);
  assert.match(readoutInner(line), /^Never reaches 90% of peak: it levels off at 50%, however large the array\./);
  assert.equal(reachBytes(line), '');
  assert.doesNotMatch(bandwidthSVG(line, 't'), /class="reach"/);
  const gpu = bandwidthSweep(engine, { op: 'all-gather', chip: 'h100', shape: '8', wraparound: '' });
  assert.equal(gpu.crossover, null);
  assert.deepEqual(gpu.reach, { always: true });
  assert.match(readoutInner(gpu), /^Reaches 90% of peak at every size: no per-hop latency on this chip\. No latency term/);
  assert.match(bandwidthSVG(gpu, 't'), />no latency term: bandwidth-bound at every size</);
  const one = bandwidthSweep(engine, { ...RING16, shape: '1' });
  assert.equal(one.empty, true);
  assert.match(bandwidthSVG(one, 't'), />one chip: nothing to send</);
  assert.match(readoutInner(one), /^One chip/);
});

test('a bad field comes back as the engine’s error on the form field it belongs to', () => {
  const axes = runSweep(engine, { ...RING16, shape: '8xq' });
  assert.equal(axes.sweep, null);
  assert.deepEqual(axes.error, { field: 'shape', message: 'axes must be sizes joined by x, like 4x4, got "8xq"' });
  const op = runSweep(engine, { ...RING16, op: 'gather' });
  assert.equal(op.error.field, 'op');
  const html = collectiveSweepHTML({ schema: engine.schema('collective'), chips: engine.chips(), values: { ...RING16, shape: '8xq' }, run: axes });
  assert.match(html, /class="sb-calc sb-bw is-stale"/);
  assert.match(html, /data-error-for="shape">axes must be sizes joined by x/);
  assert.match(html, /id="bw-shape"[^>]*aria-invalid="true"/);
});

test('the chip list is the catalog’s TPUs, plus a chip the page asked for', () => {
  const schema = engine.schema('collective');
  const tpus = sweepInputs(schema, engine.chips()).chip.choices;
  assert.ok(tpus.includes('tpu-v5e') && tpus.includes('tpu-v5p'));
  assert.ok(!tpus.includes('h100'));
  assert.ok(sweepInputs(schema, engine.chips(), 'h100').chip.choices.includes('h100'));
  const html = collectiveSweepHTML({ schema, chips: engine.chips(), values: RING16, run: runSweep(engine, RING16) });
  assert.match(html, /<option value="tpu-v5e" selected>TPU v5e<\/option>/);
  assert.match(html, /<label for="bw-shape">Axis size or axes<\/label><input id="bw-shape" name="shape"[^>]*value="16"/);
  assert.match(html, /<p class="readout" data-readout aria-live="polite" data-bytes="[\d.]+">Reaches 90%/);
  assert.match(html, /<code>achieved_bandwidth<\/code>/);
});
