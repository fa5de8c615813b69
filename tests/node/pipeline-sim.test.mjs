// engine.simulatePipeline over WASM: the items are a plain list the Gantt grid can draw, the
// figures are the pipeline calculator's, the closed forms hold, frames are typed arrays, and
// bad requests throw CalculatorErrors naming the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadEngine, CalculatorError } from '../../bindings/wasm/engine.mjs';

const engine = await loadEngine();
const CLI = process.env.SCALEBOOK_CLI ??
  fileURLToPath(new URL('../../build/native/bindings/cli/scalebook', import.meta.url));
const cli = (...args) => {
  const r = spawnSync(CLI, args, { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

test('a 2-stage 1f1b pipeline of 2 microbatches, item by item', () => {
  const sim = engine.simulatePipeline({ stages: 2, microbatches: 2, schedule: '1f1b' });
  assert.deepEqual(sim.items, [
    { stage: 0, microbatch: 0, chunk: 0, kind: 'F', start: 0, end: 1 },
    { stage: 0, microbatch: 1, chunk: 0, kind: 'F', start: 1, end: 2 },
    { stage: 0, microbatch: 0, chunk: 0, kind: 'B', start: 4, end: 6 },
    { stage: 0, microbatch: 1, chunk: 0, kind: 'B', start: 7, end: 9 },
    { stage: 1, microbatch: 0, chunk: 0, kind: 'F', start: 1, end: 2 },
    { stage: 1, microbatch: 0, chunk: 0, kind: 'B', start: 2, end: 4 },
    { stage: 1, microbatch: 1, chunk: 0, kind: 'F', start: 4, end: 5 },
    { stage: 1, microbatch: 1, chunk: 0, kind: 'B', start: 5, end: 7 },
  ]);
  assert.equal(sim.schedule, '1f1b');
  assert.equal(sim.step_time, 9);
  assert.equal(sim.ideal_time, 6);
  assert.deepEqual(sim.stages.map((s) => s.peak_activations), [2, 1]);
  assert.equal(sim.frame_count, 0);
  assert.deepEqual(sim.frames, []);
});

test('every schedule gives the pipeline calculator’s figures, and the closed forms where stated', () => {
  for (const schedule of ['naive', 'gpipe', '1f1b', 'interleaved', 'zero-bubble']) {
    for (const [stages, microbatches] of [[1, 1], [2, 4], [4, 8], [8, 16], [16, 64]]) {
      const request = { stages, microbatches, schedule, virtual_stages: 2 };
      const name = JSON.stringify(request);
      const sim = engine.simulatePipeline(request);
      const calc = engine.calculate('pipeline', request, { steps: false });
      for (const key of ['step_time', 'ideal_time', 'bubble_fraction', 'peak_activations', 'closed_form_bubble', 'closed_form_peak']) {
        assert.equal(sim[key], calc[key], `${name} ${key}`);
      }
      assert.equal(sim.items.length, calc.items, name);
      assert.ok(Math.abs(sim.bubble_fraction - sim.closed_form_bubble) < 1e-12, `${name}: ${sim.bubble_fraction} vs ${sim.closed_form_bubble}`);
      const busy = sim.items.reduce((sum, it) => sum + (it.end - it.start), 0);
      assert.ok(Math.abs(1 - busy / (stages * sim.step_time) - sim.bubble_fraction) < 1e-12, name);
    }
  }
  // GPipe's (p - 1) / (m + p - 1) and 1F1B's min(p, m) activations on stage 0.
  const gpipe = engine.simulatePipeline({ stages: 4, microbatches: 8, schedule: 'gpipe' });
  assert.equal(gpipe.bubble_fraction, 3 / 11);
  assert.equal(gpipe.peak_activations, 8);
  assert.equal(engine.simulatePipeline({ stages: 4, microbatches: 8 }).peak_activations, 4);
});

test('frames say what each stage runs between events, as typed arrays', () => {
  const sim = engine.simulatePipeline({ stages: 2, microbatches: 2, schedule: '1f1b', max_frames: 100 });
  assert.equal(sim.frame_count, 7);
  assert.equal(sim.frames_truncated, false);
  assert.deepEqual(sim.frames.map((f) => f.time), [0, 1, 2, 4, 5, 6, 7]);
  assert.ok(sim.frames[0].running instanceof Float64Array);
  assert.deepEqual(Array.from(sim.frames[1].running), [1, 4]);
  assert.deepEqual(Array.from(sim.frames[2].running), [-1, 5]);
  assert.deepEqual(Array.from(sim.frames[2].activations), [2, 1]);
  const window = engine.simulatePipeline({ stages: 2, microbatches: 2, first_frame: 5, max_frames: 10 });
  assert.deepEqual(window.frames.map((f) => f.time), [6, 7]);
  const capped = engine.simulatePipeline({ stages: 1024, microbatches: 8, schedule: 'gpipe', max_frames: 5000 });
  assert.equal(capped.frames.length, 1024);
  assert.equal(capped.frames_truncated, true);
});

function failure(request) {
  try {
    engine.simulatePipeline(request);
  } catch (error) {
    assert.ok(error instanceof CalculatorError, String(error));
    return { code: error.code, field: error.field, message: error.message };
  }
  assert.fail(`no error for ${JSON.stringify(request)}`);
}

test('bad fields give the calculator’s exact messages, naming the field', () => {
  assert.deepEqual(failure({ stages: 2.5 }), { code: 'invalid_argument', field: 'stages', message: 'stages must be a whole number, got 2.5' });
  assert.deepEqual(failure({ stages: 0 }), { code: 'out_of_range', field: 'stages', message: 'stages must be >= 1, got 0' });
  assert.deepEqual(failure({ microbatches: 'x' }), { code: 'invalid_argument', field: 'microbatches', message: 'microbatches must be a number, got "x"' });
  assert.deepEqual(failure({ microbatches: NaN }), { code: 'invalid_argument', field: 'microbatches', message: 'microbatches must be a finite number, got nan' });
  assert.deepEqual(failure({ schedule: 'dualpipe' }), { code: 'invalid_argument', field: 'schedule', message: 'schedule must be one of naive, gpipe, 1f1b, interleaved, zero-bubble, got "dualpipe"' });
  assert.deepEqual(failure({ schedule: 'interleaved', microbatches: 6 }), { code: 'invalid_argument', field: 'microbatches', message: 'microbatches must be a multiple of stages (4) for the interleaved schedule, got 6' });
  assert.deepEqual(failure({ max_frames: -1 }), { code: 'out_of_range', field: 'max_frames', message: 'max_frames must be >= 0, got -1' });
  assert.deepEqual(failure({ stage: 2 }), {
    code: 'invalid_argument', field: 'stage',
    message: 'pipeline has no input "stage"; its inputs are stages, microbatches, schedule, virtual_stages, forward_cost, backward_input_cost, backward_weight_cost, transfer_time, first_frame, max_frames, max_items',
  });
  assert.deepEqual(failure({ stages: 1024, microbatches: 1024 }), {
    code: 'out_of_range', field: 'microbatches',
    message: 'microbatches is too many for the simulator: stages = 1024, microbatches = 1024, virtual_stages = 1 make 2097152 work items, over its budget of 65536',
  });
  assert.deepEqual(failure({ stages: [2] }), { code: 'invalid_argument', field: 'stages', message: 'stages must be a number or text, got an array' });
});

test('scalebook simulate pipeline prints the same schedule as the WASM API, and a Gantt grid on request', () => {
  const request = { stages: 4, microbatches: 8, schedule: 'zero-bubble' };
  const r = cli('simulate', 'pipeline', 'stages=4', 'microbatches=8', 'schedule=zero-bubble');
  assert.equal(r.code, 0, r.err);
  const printed = JSON.parse(r.out);
  const sim = engine.simulatePipeline(request);
  assert.deepEqual(printed.items, sim.items);
  assert.deepEqual(printed.stages, sim.stages);
  for (const key of ['schedule', 'step_time', 'ideal_time', 'bubble_fraction', 'closed_form_bubble', 'peak_activations', 'closed_form_peak']) {
    assert.equal(printed[key], sim[key], key);
  }
  const text = cli('--text', 'simulate', 'pipeline', 'stages=2', 'microbatches=2');
  assert.match(text.out, /\nstage 0 {3}F0F1\.\.\.\.B0B0\.\.B1B1\n/);
  assert.match(text.out, /\nstage 1 {3}\.\.F0B0B0F1B1B1\.\.\.\.\n/);
  const bad = cli('simulate', 'pipeline', 'stages=0');
  assert.equal(bad.code, 2);
  assert.equal(bad.err, 'scalebook: stages must be >= 1, got 0\n');
  assert.equal(cli('simulate', 'systolic').err, 'scalebook: simulate takes a simulation: gpu-collective, pipeline, serving, got "systolic"\n');
});

test('a page\'s simulation has a work budget of 65,536 items, refused before any work; max_items only lowers it', () => {
  // 100,000 microbatches on 4 stages are 800,000 items: 1.5 s on a page before the budget.
  assert.deepEqual(failure({ microbatches: 100000 }), {
    code: 'out_of_range', field: 'microbatches',
    message: 'microbatches is too many for the simulator: stages = 4, microbatches = 100000, virtual_stages = 1 make 800000 work items, over its budget of 65536',
  });
  assert.deepEqual(failure({ stages: 64, microbatches: 64, max_items: 6000 }), {
    code: 'out_of_range', field: 'microbatches',
    message: 'microbatches is too many for the simulator: stages = 64, microbatches = 64, virtual_stages = 1 make 8192 work items, over its budget of 6000',
  });
  assert.deepEqual(failure({ max_items: 100000 }), { code: 'out_of_range', field: 'max_items', message: 'max_items must be <= 65536, got 100000' });
  // Ordinary runs, and the budget exactly, still simulate.
  assert.equal(engine.simulatePipeline({ microbatches: 8192 }).items.length, 65536);
  assert.equal(engine.simulatePipeline({ stages: 8, microbatches: 8, max_items: 128 }).items.length, 128);
  // The native CLI keeps the simulator's own budget.
  assert.match(cli('--text', 'simulate', 'pipeline', 'microbatches=100000').out, /^items +800000$/m);
});
