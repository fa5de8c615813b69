// Chapter 3's widgets in a real browser, on a scratch site built with their directives:
// <sb-sharding> (the picture, an illegal spec marked, new dimension fields), <sb-sharded-matmul>
// (the plan, an error beside a dimension), <sb-collective-sim> (play, step, scrub, sums), the
// pages before any script runs, and a phone's width. Expected texts come from the engine in Node.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { SHOTS, startScratch } from './harness.mjs';
import { loadEngine } from '../../bindings/wasm/engine.mjs';

const PAGE = `# Sharded matrices

::sharding array="A[I_XY, J]" mesh="X=2, Y=2" I=1024 J=4096 dtype=fp32 chip=h100

::sharded-matmul spec="A[I_X, J] * B[J, K_Y] -> C[I_X, K_Y]" mesh="X=4, Y=4" I=4096 J=8192 K=16384 dtype=bf16 chip=tpu-v5e

::collective-sim op=all-gather shape=8 bytes=1e6 wraparound=yes bidirectional=yes chip=tpu-v5e

After.
`;
let site;
let engine;

before(async () => {
  site = await startScratch('03-sharding', PAGE);
  engine = await loadEngine();
});

after(async () => { await site?.stop(); });

async function open(viewport = { width: 1280, height: 1000 }) {
  const { page, errors } = await site.open('03-sharding.html', viewport);
  // Live once the simulator has the whole run and the other two have wired their forms.
  await page.locator('sb-collective-sim input[data-action="scrub"]:not([disabled])').waitFor();
  await page.waitForFunction(() => document.querySelector('sb-collective-sim')?.simulation && document.querySelector('sb-sharded-matmul')?.lastRun);
  return { page, errors };
}

function engineError(fn) {
  try {
    fn();
  } catch (error) {
    return error;
  }
  assert.fail('the engine accepted it');
}

test('before any script runs the three widgets are drawn from the build’s engine', async () => {
  const page = await site.browser.newPage({ javaScriptEnabled: false });
  await page.goto(`${site.base}/03-sharding.html`);
  const shard = page.locator('sb-sharding');
  assert.equal(await shard.locator('g.device').count(), 4);
  // A[I_XY, J] on X=2, Y=2: device (1,0) holds piece 2 of I, and only it.
  assert.equal(await shard.locator('g.device[data-coords="1,0"] .block.held').getAttribute('data-block'), '2,0');
  assert.equal(await shard.locator('g.device[data-coords="1,0"] .block.held').count(), 1);
  const memory = engine.calculate('array-memory', { array: 'A[I_XY, J]', mesh: 'X=2, Y=2', dtype: 'fp32', chip: 'h100', I: 1024, J: 4096 });
  assert.equal(await shard.locator('[data-output="local_shape"]').textContent(), memory.local_shape);
  assert.match(await shard.locator('[data-jax]').textContent(), new RegExp(memory.partition_spec.replace(/[()[\]]/g, '\\$&')));
  const plan = engine.calculate('sharded-matmul', { spec: 'A[I_X, J] * B[J, K_Y] -> C[I_X, K_Y]', mesh: 'X=4, Y=4', dtype: 'bf16', chip: 'tpu-v5e', I: 4096, J: 8192, K: 16384 });
  assert.equal(await page.locator('sb-sharded-matmul [data-case]').textContent(), String(plan.case));
  assert.equal(await page.locator('sb-collective-sim [data-stat="step"]').textContent(), `0 of ${(await simOf({ op: 'all-gather', shape: '8' })).steps.length}`);
  await page.close();
});

// The simulation the element runs for these fields, run here the way the element runs it.
async function simOf(fields) {
  const { runCollective } = await import('../../web/runtime/collectives/collective-view.js');
  const run = runCollective(engine, engine.schema('collective'), { bytes: '1e6', wraparound: 'yes', bidirectional: 'yes', chip: 'tpu-v5e', ...fields });
  assert.equal(run.error, null);
  return run.sim;
}

test('an illegal spec gets the engine’s message beside the field, the offending character marked', async () => {
  const { page, errors } = await open();
  const shard = page.locator('sb-sharding');
  const expected = engineError(() => engine.shardingLayout({ array: 'A[I_X, J_X]', mesh: 'X=2, Y=2' }));
  await shard.locator('input[name="array"]').fill('A[I_X, J_X]');
  const slot = shard.locator('[data-error-for="array"]');
  await page.waitForFunction(() => document.querySelector('sb-sharding').shadowRoot.querySelector('[data-error-for="array"]').textContent !== '');
  assert.ok((await slot.textContent()).startsWith(expected.message));
  if (expected.position !== undefined) {
    assert.equal(Number(await slot.locator('mark').getAttribute('data-position')), expected.position);
  }
  assert.equal(await shard.locator('input[name="array"]').getAttribute('aria-invalid'), 'true');
  assert.match(await shard.locator('.sb-calc').getAttribute('class'), /is-stale/);
  // A third dimension gets its own size field; the spec's field keeps the focus.
  await shard.locator('input[name="array"]').fill('A[I_X, J_Y, K]');
  assert.deepEqual(await shard.locator('[data-dims] input').evaluateAll((els) => els.map((e) => e.name)), ['I', 'J', 'K']);
  assert.equal(await page.evaluate(() => document.querySelector('sb-sharding').shadowRoot.activeElement?.name), 'array');
  assert.equal(await shard.locator('[data-error-for="array"]').textContent(), '');
  // A preset redraws: over Y first, device (0,1) holds piece 2.
  await shard.locator('button[data-preset="A[I_YX, J]"]').click();
  await page.waitForFunction(() => document.querySelector('sb-sharding').shadowRoot.querySelector('input[name="array"]').value === 'A[I_YX, J]');
  assert.equal(await shard.locator('g.device[data-coords="0,1"] .block.held').getAttribute('data-block'), '2,0');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the planner redoes the plan as the reader types and puts a bad size beside its field', async () => {
  const { page, errors } = await open();
  const plan = page.locator('sb-sharded-matmul');
  const inputs = { spec: 'A[I, J_X] * B[J, K] -> C[I, K]', mesh: 'X=4, Y=4', dtype: 'bf16', chip: 'tpu-v5e', wraparound: 'auto', I: '4096', J: '8192', K: '16384' };
  await plan.locator('input[name="spec"]').fill(inputs.spec);
  const expected = engine.calculate('sharded-matmul', inputs);
  await page.waitForFunction((c) => document.querySelector('sb-sharded-matmul').shadowRoot.querySelector('[data-case]')?.textContent === c, String(expected.case));
  assert.equal(await plan.locator('[data-plan]').getAttribute('data-plan'), expected.plan);
  assert.equal(await plan.locator('table[data-table="collectives"] tbody tr').count(), expected.collectives.length);
  const bad = engineError(() => engine.calculate('sharded-matmul', { ...inputs, K: 'x' }));
  await plan.locator('input[name="K"]').fill('x');
  await page.waitForFunction(() => document.querySelector('sb-sharded-matmul').shadowRoot.querySelector('[data-error-for="K"]').textContent !== '');
  assert.equal(bad.field, 'K');
  assert.equal(await plan.locator('[data-error-for="K"]').textContent(), bad.message);
  assert.equal(await plan.locator('input[name="K"]').getAttribute('aria-invalid'), 'true');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the simulator plays, steps and scrubs, and shows the sums of a ReduceScatter', async () => {
  const { page, errors } = await open();
  const sim = page.locator('sb-collective-sim');
  const stat = (key) => sim.locator(`[data-stat="${key}"]`).textContent();
  const ag = await simOf({ op: 'all-gather', shape: '8' });
  assert.match(await stat('check'), /^simulation total .* = closed form /);
  await sim.locator('select[data-action="speed"]').selectOption('4');
  await sim.locator('button[data-action="play"]').click();
  await page.waitForFunction((last) => document.querySelector('sb-collective-sim').shadowRoot.querySelector('[data-stat="step"]').textContent === `${last} of ${last}`, ag.steps.length);
  assert.equal(await sim.locator('button[data-action="play"]').getAttribute('aria-pressed'), 'false');
  assert.equal(await sim.locator('.cell[fill-opacity="1"]').count(), 64); // every device holds all 8 chunks
  await sim.locator('button[data-action="reset"]').click();
  await sim.locator('button[data-action="step"]').click();
  assert.equal(await stat('step'), `1 of ${ag.steps.length}`);
  assert.equal(await sim.locator('g.move').count(), new Set(ag.steps[1].moves.map((m) => `${m.from}>${m.to}`)).size);
  await sim.locator('select[name="op"]').selectOption('reduce-scatter');
  await sim.locator('input[name="sums"]').check();
  const rs = await simOf({ op: 'reduce-scatter', shape: '8', sums: 'yes' });
  assert.ok(rs.sums, 'the engine returns partial sums when given values');
  await sim.locator('input[data-action="scrub"]').fill(String(rs.steps.length));
  await page.waitForFunction((last) => document.querySelector('sb-collective-sim').shadowRoot.querySelector('[data-stat="step"]').textContent === `${last} of ${last}`, rs.steps.length);
  // Device d ends with chunk d summed over every device: 1 + 2 + ... + 8 = 36.
  const final = rs.sums[rs.steps.length];
  assert.equal(final[3][3], 36);
  assert.ok((await sim.locator('[data-device="3"] .cell-sum').allTextContents()).includes('36'));
  await sim.locator('input[name="shape"]').fill('4x4');
  await page.waitForFunction(() => document.querySelector('sb-collective-sim').shadowRoot.querySelectorAll('g.dev').length === 16);
  assert.deepEqual(errors, []);
  await page.screenshot({ path: path.join(SHOTS, 'sharding-widgets.png'), fullPage: true });
  await page.close();
});

test('on a 390-pixel phone nothing overflows the page', async () => {
  const { page, errors } = await open({ width: 390, height: 844 });
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
  for (const tag of ['sb-sharding', 'sb-sharded-matmul', 'sb-collective-sim']) {
    const box = await page.locator(tag).boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `${tag} fits: ${JSON.stringify(box)}`);
  }
  await page.screenshot({ path: path.join(SHOTS, 'sharding-widgets-phone.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});
