// engine.simulateSystolic over WASM: the product is a plain matmul, the cycle count is the
// systolic calculator's compute_cycles, frames are plain typed arrays, and bad fields get the
// registry's exact messages as CalculatorErrors. Also the ::systolic-sim directive's build errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadEngine, CalculatorError } from '../../bindings/wasm/engine.mjs';
import { buildSite } from '../../web/builder/build.mjs';

const engine = await loadEngine();

// The engine's example matrices (systolic_sim.cpp: example_matrix), written out by hand here
// so the test checks the product against an independent plain matmul.
function example(rows, cols, seed) {
  return Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => {
    const i = r * cols + c;
    return ((i * 5 + seed * 3 + r * seed) % 7) - 3;
  }));
}

function matmul(a, b) {
  return a.map((row) => b[0].map((_, n) => row.reduce((sum, x, k) => sum + x * b[k][n], 0)));
}

const SHAPES = [
  { M: 6, N: 4, K: 5, rows: 4, cols: 4 },
  { M: 1, N: 1, K: 1, rows: 1, cols: 1 },
  { M: 9, N: 7, K: 13, rows: 4, cols: 3 },
  { M: 32, N: 32, K: 32, rows: 16, cols: 16 },
  { M: 17, N: 5, K: 3, rows: 2, cols: 8 },
  { M: 3, N: 20, K: 9, rows: 5, cols: 2 },
];

test('the product equals a plain matmul and the cycles equal compute_cycles, for every dataflow and convention', () => {
  for (const shape of SHAPES) {
    const want = matmul(example(shape.M, shape.K, 1), example(shape.K, shape.N, 2));
    for (const dataflow of ['ws', 'os', 'is']) {
      for (const convention of ['scalesim', 'pipelined']) {
        const inputs = { ...shape, dataflow, convention };
        const name = JSON.stringify(inputs);
        const sim = engine.simulateSystolic(inputs);
        assert.deepEqual(sim.c, want, name);
        assert.equal(sim.cycles, engine.calculate('systolic', inputs).compute_cycles, name);
        assert.equal(sim.macs, shape.M * shape.N * shape.K, name);
        assert.equal(sim.pe_steps, shape.rows * shape.cols * sim.cycles, name);
        assert.deepEqual(sim.frames, [], name); // no frames unless asked for
        assert.equal(sim.frames_truncated, false);
      }
    }
  }
});

test('form strings are accepted as the calculator accepts them', () => {
  const sim = engine.simulateSystolic({ M: '6', N: '4', K: '5', rows: '4', cols: ' 4 ', dataflow: 'os', convention: 'scalesim' });
  assert.equal(sim.cycles, engine.calculate('systolic', { M: 6, N: 4, K: 5, rows: 4, cols: 4, dataflow: 'os', convention: 'scalesim' }).compute_cycles);
});

test('frames: one per recorded cycle, plain typed arrays, MACs adding up to M N K', () => {
  const inputs = { M: 6, N: 4, K: 5, rows: 4, cols: 4, dataflow: 'ws', convention: 'pipelined' };
  const all = engine.simulateSystolic({ ...inputs, max_frames: 22 });
  assert.equal(all.cycles, 22);
  assert.equal(all.frames.length, 22);
  assert.deepEqual(all.frames.map((f) => f.cycle), [...Array(22).keys()]);
  assert.equal(all.frames.reduce((s, f) => s + f.macs, 0), 120);
  const { pes } = all.frames[10];
  for (const key of ['weight', 'activation', 'psum', 'shadow']) {
    assert.ok(pes[key] instanceof Float64Array, key);
    assert.equal(pes[key].length, 16);
  }
  assert.ok(pes.flags instanceof Uint8Array);
  // kMac (16) is set on exactly as many PEs as the frame's MAC count.
  for (const f of all.frames) assert.equal(f.pes.flags.filter((x) => x & 16).length, f.macs);

  const window = engine.simulateSystolic({ ...inputs, first_frame: 5, max_frames: 3 });
  assert.deepEqual(window.frames.map((f) => f.cycle), [5, 6, 7]);
  assert.deepEqual(window.frames[1].pes.psum, all.frames[6].pes.psum);
  assert.equal(window.frames_truncated, false);
  // Past the last cycle there is nothing to record.
  assert.equal(engine.simulateSystolic({ ...inputs, first_frame: 20, max_frames: 10 }).frames.length, 2);
});

test('frames stop at the engine’s cell limit (2^19 PE states) and say so', () => {
  const sim = engine.simulateSystolic({ M: 64, N: 64, K: 64, rows: 64, cols: 64, dataflow: 'os', convention: 'scalesim', max_frames: 1000 });
  assert.equal(sim.frames.length, 2 ** 19 / (64 * 64));
  assert.equal(sim.frames_truncated, true);
});

function failure(request) {
  try {
    engine.simulateSystolic(request);
  } catch (error) {
    assert.ok(error instanceof CalculatorError, String(error));
    return { code: error.code, field: error.field, message: error.message };
  }
  assert.fail(`no error for ${JSON.stringify(request)}`);
}

test('bad fields give the registry’s exact messages, naming the field', () => {
  const ok = { M: 6, N: 4, K: 5, rows: 4, cols: 4 };
  assert.deepEqual(failure({ ...ok, rows: 2.5 }), { code: 'invalid_argument', field: 'rows', message: 'rows must be a whole number, got 2.5' });
  assert.deepEqual(failure({ ...ok, cols: '2.5' }), { code: 'invalid_argument', field: 'cols', message: 'cols must be a whole number, got 2.5' });
  assert.deepEqual(failure({ ...ok, M: 0 }), { code: 'out_of_range', field: 'M', message: 'M must be >= 1, got 0' });
  assert.deepEqual(failure({ ...ok, K: 'x' }), { code: 'invalid_argument', field: 'K', message: 'K must be a number, got "x"' });
  assert.deepEqual(failure({ ...ok, dataflow: 'rs' }), { code: 'invalid_argument', field: 'dataflow', message: 'dataflow must be one of ws, os, is, got "rs"' });
  assert.deepEqual(failure({ ...ok, convention: 'tpu' }), { code: 'invalid_argument', field: 'convention', message: 'convention must be one of scalesim, pipelined, got "tpu"' });
  assert.deepEqual(failure({ ...ok, max_frames: 1.5 }), { code: 'invalid_argument', field: 'max_frames', message: 'max_frames must be a whole number, got 1.5' });
  assert.deepEqual(failure({ ...ok, first_frame: -1 }), { code: 'out_of_range', field: 'first_frame', message: 'first_frame must be from 0 to 1e15, got -1' });
  assert.deepEqual(failure({ ...ok, max_frames: '3' }), { code: 'invalid_argument', field: 'max_frames', message: 'max_frames must be a number' });
  assert.deepEqual(failure({ ...ok, max_pe_steps: 0 }), { code: 'out_of_range', field: 'max_pe_steps', message: 'max_pe_steps must be > 0, got 0' });
  assert.deepEqual(failure({ ...ok, speed: 2 }), {
    code: 'invalid_argument', field: 'speed',
    message: 'simulateSystolic has no field "speed"; its fields are M, N, K, rows, cols, dataflow, convention, first_frame, max_frames, max_pe_steps',
  });
  assert.deepEqual(failure([1, 2]), { code: 'invalid_argument', field: '', message: 'request must be an object of name: value, got an array' });
});

test('a shape over the step budget is refused with a pointer to the closed form', () => {
  assert.deepEqual(failure({ M: 6, N: 4, K: 5, rows: 4, cols: 4, max_pe_steps: 200 }), {
    code: 'out_of_range', field: 'M',
    message: 'M = 6, N = 4, K = 5 on a 4 x 4 array is 352 PE-steps, over the step budget of 200; use the closed form (the systolic calculator) instead',
  });
  // The schema's defaults (M = N = K = 1024 on 128 x 128) are over the default budget too.
  assert.equal(failure({}).field, 'M');
});

function site(markdown) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scalebook-sim-'));
  fs.mkdirSync(path.join(dir, 'chapters'));
  fs.mkdirSync(path.join(dir, 'exercises'));
  fs.writeFileSync(path.join(dir, 'chapters/toc.json'), JSON.stringify({
    title: 'T', subtitle: 'S', sections: [{ number: 1, slug: '01-x', title: 'X', summary: 'x', file: 'x.md' }],
  }));
  fs.writeFileSync(path.join(dir, 'chapters/x.md'), markdown);
  return buildSite({ chaptersDir: path.join(dir, 'chapters'), exercisesDir: path.join(dir, 'exercises'), out: path.join(dir, 'dist') })
    .then(() => fs.readFileSync(path.join(dir, 'dist/01-x.html'), 'utf8'));
}

test('::systolic-sim emits the element with its first frame in a declarative shadow root', async () => {
  const html = await site('# X\n\n::systolic-sim rows=4 cols=4 M=6 N=4 K=5 dataflow=ws convention=pipelined\n');
  assert.match(html, /<sb-systolic-sim rows="4" cols="4" m="6" n="4" k="5" dataflow="ws" convention="pipelined"><template shadowrootmode="open"><link rel="stylesheet" href="assets\/css\/shadow.css"><link rel="stylesheet" href="assets\/css\/systolic.css"><div class="sb-calc sb-sim/);
  assert.equal((html.match(/data-pe="/g) ?? []).length, 16);
  assert.match(html, /data-stat="cycle">1 of 22</);
  assert.match(html, /data-stat="check">closed form: 22 cycles — matches the closed form</);
});

test('::systolic-sim build errors name the file, the line and the problem', async () => {
  const cases = [
    ['::systolic-sim rows=4 depth=3', 'systolic simulation has no setting "depth"; use rows, cols, M, N, K, dataflow, convention'],
    ['::systolic-sim rows=2.5', 'rows must be a whole number, got 2.5'],
    ['::systolic-sim M=6 N=4 K=5 rows=4 cols=4 dataflow=xs', 'dataflow must be one of ws, os, is, got "xs"'],
    ['::systolic-sim torus', 'unexpected "torus"; use ::systolic-sim key=value ...'],
    ['::systolic-sim M=100000 N=4 K=4 rows=4 cols=4', /^M = 100000, N = 4, K = 4 on a 4 x 4 array is .* over the step budget of 262144; use the closed form/],
  ];
  for (const [line, message] of cases) {
    await assert.rejects(site(`# X\n\n${line}\n`), (error) => {
      assert.ok(error.message.includes('x.md:3: ::systolic-sim: '), error.message);
      const text = error.message.split('::systolic-sim: ')[1];
      if (message instanceof RegExp) assert.match(text, message);
      else assert.equal(text, message);
      return true;
    });
  }
});
