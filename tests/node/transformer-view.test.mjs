// The pure parts of <sb-transformer>: form values from the catalog, the calculator inputs they
// make, the layer picture and totals from the engine's blocks and outputs, the attention-share
// curve, and the ::transformer directive's static render.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../bindings/wasm/engine.mjs';
import { useEngine } from '../../web/runtime/core/format.js';
import {
  attributeInputs, formValues, engineInputs, evaluate, shareCurve, layerSVG, totalsHTML,
  sharePlotSVG, blockDetailHTML, transformerHTML, countText, sweepContexts,
} from '../../web/runtime/transformer/transformer-view.js';
import { transformerDirective } from '../../web/builder/directives/transformer.mjs';
import { parseArgs } from '../../web/builder/args.mjs';

let engine;
let models;
let schema;
before(async () => {
  engine = await loadEngine();
  useEngine(engine); // format.js prints with the engine
  models = engine.models();
  schema = engine.schema('transformer');
});

const run = (given) => {
  const values = formValues(models, schema, given);
  const inputs = engineInputs(models, values);
  return { values, inputs, ...evaluate(engine, inputs) };
};

test('a preset fills the form; only the fields changed from it reach the engine', () => {
  const values = formValues(models, schema, { model: 'llama-3-70b' });
  assert.equal(values.D, '8192');
  assert.equal(values.K, '8');
  assert.equal(values.gated, 'yes');
  assert.equal(values.B, '1024');
  assert.deepEqual(engineInputs(models, values),
    { model: 'llama-3-70b', B: '1024', T: '4096', dtype: 'bf16', causal: 'no', remat: 'none' });
  assert.deepEqual(engineInputs(models, { ...values, K: '16' }).K, '16');
  // A custom model passes every shape field: the engine needs them all.
  const custom = engineInputs(models, { ...values, model: 'custom' });
  assert.equal(custom.L, '80');
  assert.equal(custom.V, '128256');
  // Attributes are lower case in HTML.
  assert.deepEqual(attributeInputs({ model: 'gemma-7b', b: '2', t: '8192', k: '4', experts_per_token: '1', color: 'red' }),
    { model: 'gemma-7b', B: '2', T: '8192', K: '4', experts_per_token: '1' });
});

test('LLaMA 3 70B: the picture prints the engine\'s counts for each block', () => {
  const { result, values } = run({ model: 'llama-3-70b', B: '1', T: '4096' });
  const svg = layerSVG(result, values);
  const blocks = [...svg.matchAll(/data-block="([\w]+)"/g)].map((m) => m[1]);
  assert.deepEqual(blocks, ['q', 'k', 'v', 'qk', 'av', 'o', 'in1', 'in2', 'out']);
  // W_Q: D N H = 8192 x 64 x 128 = 67.1M params, 6 x 4096 x 67.1M = 1.65 TFLOP for the step.
  assert.match(svg, /data-block="q"[^]*?67\.1M params[^]*?1\.65 TFLOP/);
  assert.match(svg, /data-block="k"[^]*?8\.39M params[^]*?206 GFLOP/);
  // Q.K: 6 B T S N H = 6 x 4096^2 x 64 x 128 = 825 GFLOP, no weights.
  assert.match(svg, /data-block="qk"[^]*?no weights[^]*?825 GFLOP/);
  assert.match(svg, /data-block="in1"[^]*?235M params[^]*?5\.77 TFLOP/);
  assert.match(svg, /W<tspan class="sub" dy="3">Q<\/tspan>/);
  assert.match(svg, /to the next layer \(80 layers in all\)/);
  assert.match(svg, /\u03c3\(in1\) \u2299 in2/);
  const detail = blockDetailHTML(result.blocks.find((b) => b.block === 'k'));
  assert.match(detail, /\[B, S, D\] \u00b7 \[D, K, H\] \u2192 \[B, S, K, H\]/);
  assert.match(detail, /\[1, 4096, 8192\] \u00b7 \[8192, 8, 128\] \u2192 \[1, 4096, 8, 128\]/);
  assert.match(detail, /6BTDKH<\/dt><dd data-detail="flops_training">206 GFLOP/);
});

test('the totals are the engine\'s outputs: 70.6B params, 6P, KV per token and for the batch', () => {
  const { result, values } = run({ model: 'llama-3-70b', B: '1', T: '4096' });
  const html = totalsHTML(result, values);
  assert.match(html, /data-output="params">70\.6B</);
  assert.doesNotMatch(html, /params_active/); // dense: active = total
  assert.match(html, /data-output="flops_training">449 GFLOP</);
  assert.match(html, /data-output="flops_6p">423 GFLOP</);
  assert.match(html, /data-output="kv_bytes_per_token">328 kB</); // 2 L K H x 2 B = 327,680
  assert.match(html, /data-output="kv_cache_bytes">1\.34 GB</);
  assert.match(html, /data-output="attention">GQA, G = 8</);
  // An MoE shows its active parameters: DeepSeek-V3, 671B of which 37.6B per token.
  const ds = run({ model: 'deepseek-v3' });
  const moe = totalsHTML(ds.result, ds.values);
  assert.match(moe, /data-output="params">671B</);
  assert.match(moe, /data-output="params_active">37\.6B</);
  assert.match(layerSVG(ds.result, ds.values), /data-block="router"[^]*?data-block="in1"/);
});

test('the attention-share curve is the engine at each context, crossing one half at T = 8D', () => {
  assert.equal(sweepContexts()[0], 1000);
  assert.equal(sweepContexts().at(-1), 1000000);
  // The book's 8D model: F = 4D, NH = D, K = N, D = 8192 -> 65,536 tokens.
  const { inputs } = run({ model: 'custom', L: '1', D: '8192', F: '32768', N: '64', K: '64', H: '128', V: '1' });
  const curve = shareCurve(engine, inputs);
  assert.equal(curve.crossover, 65536);
  const share = Object.fromEntries(curve.points);
  assert.ok(Math.abs(share[1000] - (1000 / 65536) / (1 + 1000 / 65536)) < 1e-12);
  const svg = sharePlotSVG(curve, { T: 4096, share: share[3981] });
  assert.match(svg, /data-crossover="65536"/);
  assert.match(svg, /T = 65\.5k/);
  // A crossover outside the plot says where it is.
  const far = sharePlotSVG({ points: curve.points, crossover: 2e6 });
  assert.match(far, /crossover at T = 2M/);
});

test('bad shapes come back as the engine\'s message, beside the field it names', () => {
  const { error } = run({ model: 'llama-3-70b', K: '12' });
  assert.deepEqual(error, { field: 'K', message: 'K must divide N (64), got 12' });
  const html = transformerHTML({ models, schema, values: formValues(models, schema, { K: '12' }), result: null, curve: null, error });
  assert.match(html, /id="tf-K" name="K" aria-describedby="tf-K-err" aria-invalid="true"/);
  assert.match(html, /data-error-for="K">K must divide N \(64\), got 12</);
  const hidden = run({ model: 'llama-3-70b', shared_experts: '2' }).error;
  assert.equal(hidden.field, 'shared_experts');
  const more = transformerHTML({ models, schema, values: formValues(models, schema, {}), result: null, curve: null, error: hidden });
  assert.match(more, /<details class="more" open>/);
});

test('counts read as people say them', () => {
  assert.equal(countText(70553706496), '70.6B');
  assert.equal(countText(8388608), '8.39M');
  assert.equal(countText(671026404352), '671B');
  assert.equal(countText(4096), '4.1k');
  assert.equal(countText(512), '512');
});

test('::transformer renders the static layer and fails the build on bad settings', () => {
  const ctx = { engine };
  const fail = (message) => { throw new Error(message); };
  const html = transformerDirective(ctx, parseArgs('model=llama-3-70b B=1 T=4096 K=16'), fail);
  assert.match(html, /^<sb-transformer model="llama-3-70b" b="1" t="4096" k="16"><template shadowrootmode="open"><link rel="stylesheet" href="assets\/css\/shadow.css"><link rel="stylesheet" href="assets\/css\/transformer.css"><form/);
  assert.match(html, /id="tf-K" name="K"[^>]*value="16"/);
  assert.match(html, /data-output="kv_bytes_per_token">655 kB</); // 2 x 80 x 16 x 128 x 2 B
  assert.match(html, /<svg class="share"/);
  assert.throws(() => transformerDirective(ctx, parseArgs('K=12'), fail), /K must divide N \(64\), got 12/);
  assert.throws(() => transformerDirective(ctx, parseArgs('model=gpt-5'), fail), /unknown model "gpt-5"; choose from llama-3-70b,/);
  assert.throws(() => transformerDirective(ctx, parseArgs('colour=red'), fail), /::transformer has no setting "colour"/);
});

test('an empty field takes its default (the schema\'s or the preset\'s) instead of failing', () => {
  const values = { ...formValues(models, schema, { model: 'llama-3-70b' }), B: '', T: ' ', D: '' };
  const inputs = engineInputs(models, values);
  assert.equal('B' in inputs || 'T' in inputs || 'D' in inputs, false);
  const { result, error } = evaluate(engine, inputs);
  assert.equal(error, undefined);
  assert.deepEqual(result, evaluate(engine, engineInputs(models, formValues(models, schema, { model: 'llama-3-70b' }))).result);
});

test('a number beyond a double (1e400) is too large, not "got inf"', () => {
  const values = { ...formValues(models, schema, { model: 'llama-3-70b' }), B: '1e400' };
  const { error } = evaluate(engine, engineInputs(models, values));
  assert.deepEqual(error, { field: 'B', message: 'B is too large: numbers stop near 1.8e308' });
});
