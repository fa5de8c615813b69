// The pipeline Gantt grid (pipeline-view.js) and its ::pipeline directive: one box per work
// item of the engine's simulation at the engine's times, state classes that follow the time
// line, the figures beside the grid, and bad settings failing with the engine's words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../bindings/wasm/engine.mjs';
import { useEngine } from '../../web/runtime/core/format.js';
import { runPipeline, ganttSVG, statsView, pipelineHTML, frameTime } from '../../web/runtime/training/pipeline-view.js';
import { pipelineDirective } from '../../web/builder/directives/training.mjs';

const engine = await loadEngine();
useEngine(engine);

const boxes = (svg) => [...svg.matchAll(/<g class="item kind-(\w) (\w+)" data-item="(\d+)"><rect x="([\d.]+)" y="(\d+)" width="([\d.]+)"/g)]
  .map(([, kind, state, i, x, y, w]) => ({ kind, state, i: Number(i), x: Number(x), y: Number(y), w: Number(w) }));

test('every work item is one box in its stage\'s row, as long as the engine says', () => {
  const sim = runPipeline(engine, { stages: '2', microbatches: '2', schedule: '1f1b' });
  assert.equal(sim.step_time, 9);
  const drawn = boxes(ganttSVG(sim, 0));
  assert.equal(drawn.length, sim.items.length);
  // Stage 1's first forward runs 0..1 of 9 units: x from 74 over (720 - 12 - 74) px.
  const unit = (720 - 12 - 74) / 9;
  const first = drawn.find((b) => b.i === 0);
  assert.equal(first.kind, 'F');
  assert.ok(Math.abs(first.x - 74) < 0.1 && Math.abs(first.w - (unit - 1)) < 0.2);
  // Stage 2's row sits one row below stage 1's.
  assert.equal(new Set(drawn.map((b) => b.y)).size, 2);
});

test('boxes before the time line are done, across it running, after it still to come', () => {
  const sim = runPipeline(engine, { stages: '4', microbatches: '8', schedule: 'gpipe' });
  assert.equal(sim.bubble_fraction, 3 / 11);
  const index = Math.floor(sim.frames.length / 2);
  const t = frameTime(sim, index);
  for (const b of boxes(ganttSVG(sim, t))) {
    const item = sim.items[b.i];
    const want = item.end <= t ? 'done' : (item.start <= t ? 'running' : 'todo');
    assert.equal(b.state, want);
  }
  assert.equal(frameTime(sim, sim.frames.length), sim.step_time);
  assert.match(statsView(sim, 0).held, /^0, 0, 0, 0$/);
});

test('the zero-bubble schedule draws its input- and weight-gradient halves apart', () => {
  const sim = runPipeline(engine, { stages: '4', microbatches: '8', schedule: 'zero-bubble' });
  const kinds = new Set(boxes(ganttSVG(sim)).map((b) => b.kind));
  assert.deepEqual([...kinds].sort(), ['F', 'I', 'W']);
  assert.ok(sim.bubble_fraction < runPipeline(engine, { stages: '4', microbatches: '8', schedule: '1f1b' }).bubble_fraction);
});

test('the figures beside the grid are the simulation\'s, the closed form beside them', () => {
  const schema = engine.schema('pipeline');
  const sim = runPipeline(engine, { stages: '4', microbatches: '8' });
  const html = pipelineHTML({ schema, values: {}, sim });
  assert.match(html, /data-stat="bubble">27\.3%</);
  assert.match(html, /data-stat="closed">27\.3%</);
  assert.match(html, /data-stat="peak">4</);
});

test('::pipeline checks its settings through the engine', () => {
  const fail = (message) => { throw new Error(message); };
  const ctx = { engine };
  assert.match(pipelineDirective(ctx, { positional: [], named: { stages: '4', microbatches: '8' } }, fail),
    /^<sb-pipeline stages="4" microbatches="8"><template shadowrootmode="open"><link rel="stylesheet" href="assets\/css\/shadow.css">/);
  assert.throws(() => pipelineDirective(ctx, { positional: [], named: { stages: '0' } }, fail), { message: /^stages must be/ });
  assert.throws(() => pipelineDirective(ctx, { positional: [], named: { stage: '4' } }, fail),
    { message: /^pipeline has no setting "stage"; use stages, microbatches/ });
  // Refused by the engine before it simulates (max_items), so an edit never blocks the page.
  assert.throws(() => runPipeline(engine, { stages: '64', microbatches: '64' }), {
    field: 'microbatches',
    message: 'microbatches is too many for the simulator: stages = 64, microbatches = 64, virtual_stages = 1 make 8192 work items, over its budget of 6000, what this page draws; scalebook simulate pipeline takes more',
  });
  assert.equal(runPipeline(engine, { stages: '4', microbatches: '750' }).items.length, 6000);
});
