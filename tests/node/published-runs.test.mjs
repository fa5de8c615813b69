// ::published-runs: the published runs of ../shared/reference/published-runs.json beside the
// engine's prediction. The expected predictions are the engine's, computed here from inputs
// written out by hand from each paper; the measured figures are the reference file's.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadEngine } from '../../bindings/wasm/engine.mjs';
import { extractDirectives } from '../../web/builder/directives.mjs';
import { REFERENCE_DIR } from '../../web/builder/reference.mjs';
import { checkPage } from '../../web/builder/page-check.mjs';
import { layoutDegrees, readPublishedRuns } from '../../web/builder/published-runs.mjs';

let engine;
before(async () => {
  engine = await loadEngine();
});

const RUNS = JSON.parse(fs.readFileSync(path.join(REFERENCE_DIR, 'published-runs.json'), 'utf8'));

function table(line, referenceDir) {
  const ctx = { engine, calculators: new Map(), referenceDir };
  return extractDirectives(ctx, `# T\n\n${line}\n`, 'ch.md').blocks[0];
}

// A reference folder holding the runs given, edited by `edit`.
function referenceWith(edit) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-runs-'));
  const runs = structuredClone(RUNS);
  edit(runs);
  fs.writeFileSync(path.join(dir, 'published-runs.json'), JSON.stringify(runs));
  return dir;
}

const byId = (runs, id) => runs.find((r) => r.id === id);
const tbodyOf = (html, text) => html.split('<tbody>').find((part) => part.includes(text));

test('the 405B run on 8,192 H100s: its layout\'s rank among the search\'s top 100, and the best', () => {
  const html = table('::published-runs kind=training hardware=gpu');
  const row = tbodyOf(html, 'LLaMA 3 405B');
  // The paper's Table 4: TP 8, PP 16, DP 64 (optimizer sharded: our fsdp 64 at ZeRO-1), 2,048
  // sequences of 8,192 tokens.
  const search = engine.calculate('training-search', {
    model: 'llama-3-405b', chip: 'h100', chips: 8192, B: 2048 * 8192, T: 8192, dtype: 'bf16', top: 100,
  }, { steps: false });
  const at = search.top.findIndex((e) => /^fsdp 64 \(\S+\) x tp 8 \(\S+\) x pp 16 \(\S+\) on /.test(e.layout));
  assert.ok(at >= 0, 'the published degrees are among the search\'s 100 fastest');
  const entry = search.top[at];
  const rank = `${at + 1}${['th', 'st', 'nd', 'rd'][(at + 1) % 10] ?? 'th'}`;
  assert.ok(row.includes(`<th scope="row">Its layout in the search's top 100</th><td colspan="3">${rank}: ` +
    `${entry.layout.replaceAll("'", '&#39;')}, ${entry.choices}, ${engine.format(entry.step_time, 's', 'si')}</td>`), row);
  assert.ok(row.includes(`<th scope="row">The search's best</th><td colspan="3">${search.best.replaceAll("'", '&#39;')}, ` +
    `${engine.format(search.step_time, 's', 'si')}</td>`));
  // Below the top ten, the row says why the search prefers others.
  if (at + 1 > 10) assert.match(row, /The search ranks the published degrees \d+(st|nd|rd|th): the model runs NVLink and the NICs at their datasheet bandwidth/);
  // Predicted TFLOP/s per chip beside the paper's 430, from the mapped training calculator.
  const mapped = engine.calculate('training', {
    model: 'llama-3-405b', chip: 'h100', shape: '8192', fsdp: 64, zero: '1', tp: 8, pp: 16, B: 2048 * 8192, T: 8192,
    dtype: 'bf16', remat: 'none', microbatches: 32,
  }, { steps: false });
  const flops = mapped.mfu * mapped.peak_flops;
  assert.ok(row.includes(`<th scope="row">TFLOP/s per chip</th><td>${engine.format(flops, 'FLOP/s', 'si')}</td>` +
    `<td>${engine.format(430e12, 'FLOP/s', 'si')}</td><td>${engine.format((430e12 / flops) * 100, '', 'num')}%</td>`), row);
  assert.match(row, /dp 64 with its optimizer state sharded maps to fsdp 64 at ZeRO-1; 32 microbatches of one sequence/);
  assert.ok(row.includes('<code>scalebook calc training model=llama-3-405b chip=h100 B=16777216 T=8192 dtype=bf16 remat=none ' +
    'zero=1 fsdp=64 tp=8 pp=16 shape=8192 microbatches=32</code>'), row);
  assert.match(row, /<a href="https:\/\/arxiv.org\/abs\/2407.21783">The Llama 3 Herd of Models/);
});

test('the 8-GPU FP8 run: measured 14,451 tokens/s per chip beside the engine\'s prediction and their ratio', () => {
  const html = table('::published-runs ids=megatron-bridge-llama3-8b-8xh100-fp8');
  const inputs = { model: 'llama-3-8b', chip: 'h100', shape: '8', fsdp: 8, zero: '3', B: 128 * 8192, T: 8192, dtype: 'fp8', remat: 'none' };
  // The fewest accumulation steps that fit: one does not (the whole batch's activations at once).
  assert.equal(engine.calculate('training', inputs, { steps: false }).fits, 'no');
  const fitting = [2, 4, 8, 16].find((g) => engine.calculate('training', { ...inputs, grad_accum: g }, { steps: false }).fits === 'yes');
  const result = engine.calculate('training', { ...inputs, grad_accum: fitting }, { steps: false });
  const perChip = (128 * 8192) / result.step_time / 8;
  const ratio = 14451 / perChip;
  assert.ok(html.includes(`<th scope="row">Tokens/s per chip</th><td>${engine.format(perChip, '', 'int')}</td><td>14,451</td>` +
    `<td>${engine.format(ratio * 100, '', 'num')}%</td>`), html);
  assert.ok(ratio < 0.9);
  assert.ok(html.includes(`The model is a roofline ceiling: measured tokens per second per chip is ${engine.format(ratio * 100, '', 'num')}% of it.`));
  // One node: no search rank.
  assert.doesNotMatch(html, /search's top/);
  assert.match(html, new RegExp(`${fitting} accumulation steps, the fewest that fit in HBM`));
});

test('an accessible table: a caption, scoped headers, one row group per run', () => {
  const html = table('::published-runs kind=training hardware=gpu');
  assert.match(html, /^<sb-published-runs kind="training" hardware="gpu"><table class="sb-published-runs"><caption>Published training runs on GPUs: /);
  assert.equal([...html.matchAll(/<th scope="col">/g)].length, 5);
  const gpuTraining = RUNS.filter((r) => r.kind === 'training' && r.hardware.chip === 'h100');
  assert.equal([...html.matchAll(/<th scope="rowgroup"/g)].length, gpuTraining.length);
  assert.doesNotMatch(html, /style=|<script/);
  // Nothing the page check refuses (TeX, templates, what the CSP blocks).
  checkPage(`<main>${html}</main>`, 'p.html', 'ch.md');
});

test('a run whose chip, model, format or remat the engine does not take is a row saying so', () => {
  const dir = referenceWith((runs) => {
    byId(runs, 'megatron-bridge-llama3-8b-8xh100-fp8').hardware.chip = 'h900';
    byId(runs, 'llama3-405b-8192xh100').model = 'llama-9-1t';
    byId(runs, 'trtllm-llama31-405b-fp8-8xh100').kv_dtype = 'fp6';
    byId(runs, 'maxtext-v6e256-llama2-70b').remat = 'offload_everything';
  });
  const html = table('::published-runs', dir);
  assert.match(html, /<td colspan="4">Not compared: the engine&#39;s chip catalog has no &quot;h900&quot;\.<\/td>/);
  assert.match(html, /Not compared: the engine has no model preset &quot;llama-9-1t&quot;\./);
  assert.match(html, /Not compared: the inference calculator has no number format &quot;fp6&quot; \(it takes fp32, bf16, fp8, int8, int4\)\./);
  assert.match(html, /Not compared: remat &quot;offload_everything&quot; has no counterpart among the training calculator&#39;s policies/);
  // The others still compare.
  assert.match(html, /<strong>LLaMA 3 8B<\/strong> on 8 × TPU v5e, bf16.*Output tokens\/s<\/th>/s);
});

test('the FP8 405B serving run on one H100 node: the largest batch, a prefill and the decode steps, beside 2,919 tokens/s', () => {
  const html = table('::published-runs kind=inference hardware=gpu');
  const inputs = { model: 'llama-3-405b', chip: 'h100', shape: '8', tp: 8, dtype_params: 'fp8', dtype: 'fp8', dtype_kv: 'fp8' };
  const calc = (more) => engine.calculate('inference', { ...inputs, ...more }, { steps: false });
  // TensorRT-LLM's offline max-throughput run: 1,000 tokens in, 1,000 out, as many at once as fit.
  const batch = Math.floor(calc({ phase: 'decode', S: 2000, batch: 1 }).max_batch);
  const prefill = calc({ phase: 'prefill', T: 1000, batch }).t_step;
  const decode = calc({ phase: 'decode', S: 1500, batch }).t_step;
  const perSecond = (batch * 1000) / (prefill + 1000 * decode);
  const ratio = engine.format((2919 / perSecond) * 100, '', 'num');
  assert.ok(html.includes(`<th scope="row">Output tokens/s</th><td>${engine.format(perSecond, '', 'int')}</td><td>2,919</td><td>${ratio}%</td>`), html);
  assert.ok(html.includes(`<th scope="row">Prefill of ${batch} prompts</th><td>${engine.format(prefill, 's', 'si')}</td>`));
  assert.match(html, new RegExp(`batch ${batch}, the largest whose caches hold every full 2000-token context`));
  assert.match(html, /<code>scalebook calc inference model=llama-3-405b chip=h100 dtype_params=fp8 dtype=fp8 dtype_kv=fp8 tp=8 shape=8 batch=\d+ phase=decode S=1500<\/code>/);
  assert.match(html, /^<sb-published-runs kind="inference" hardware="gpu"><table class="sb-published-runs"><caption>Published serving runs on GPUs/);
  // No training row: no word on how MFU is counted.
  assert.doesNotMatch(html, /MFU/);
});

test('a TPU run from a config.json with no slice shape takes the search\'s shape and says so', () => {
  const html = table('::published-runs ids=maxtext-v6e256-llama2-70b');
  assert.match(html, /remat &quot;full&quot; runs as block; no slice shape published: (\d+x\d+), the shape of the search&#39;s best with these degrees/);
  assert.match(html, /<code>scalebook calc training model=custom L=80 D=8192 F=28672 /);
  assert.match(html, /<td>943<\/td>/);
});

test('a missing reference file fails the build, saying where it looked', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-runs-none-'));
  assert.throws(() => table('::published-runs', dir), (error) => {
    assert.equal(error.name, 'BuildError');
    assert.equal(error.message, `ch.md:3: ::published-runs: ::published-runs compares the runs of ${path.join(dir, 'published-runs.json')}, ` +
      'which could not be read (ENOENT): see reference/README.md');
    return true;
  });
});

test('a malformed run fails the build naming the run and the field', () => {
  const cases = [
    [(runs) => { byId(runs, 'megatron-bridge-llama3-8b-8xh100-fp8').hardware.chips = 8.5; },
      'run "megatron-bridge-llama3-8b-8xh100-fp8": hardware.chips must be a whole number of chips, not 8.5'],
    [(runs) => { delete byId(runs, 'llama3-405b-8192xh100').seq; }, 'run "llama3-405b-8192xh100": seq must be a whole number of tokens, not undefined'],
    [(runs) => { byId(runs, 'llama3-405b-8192xh100').layout.pp = 8; },
      'run "llama3-405b-8192xh100": layout multiplies to 4096 chips (dp x fsdp x tp x pp x ep x cp), not hardware.chips 8192'],
    [(runs) => { byId(runs, 'llama3-405b-8192xh100').measured.mfu = 43; }, 'run "llama3-405b-8192xh100": measured.mfu must be a positive number at most 1, not 43'],
    [(runs) => { delete runs[0].id; }, 'run 1: id must be a non-empty string'],
  ];
  for (const [edit, message] of cases) {
    const dir = referenceWith(edit);
    assert.throws(() => table('::published-runs', dir), (error) => {
      assert.equal(error.message, `ch.md:3: ::published-runs: ${path.join(dir, 'published-runs.json')}: ${message}`);
      return true;
    });
  }
  // A config.json the engine cannot read fails at the build too, with the engine's words.
  const dir = referenceWith((runs) => { delete byId(runs, 'maxtext-v6e256-llama2-70b').model.config.vocab_size; });
  assert.throws(() => table('::published-runs ids=maxtext-v6e256-llama2-70b', dir),
    /run "maxtext-v6e256-llama2-70b": model\.config: config\.json has no vocab_size \(V\)/);
});

test('settings are checked', () => {
  assert.throws(() => table('::published-runs kind=serving'), /::published-runs: kind must be training or inference, not "serving"/);
  assert.throws(() => table('::published-runs chip=h100'), /::published-runs: no setting "chip"; use kind, hardware, ids/);
  assert.throws(() => table('::published-runs ids=nope'), /::published-runs: ids: no run "nope" in the reference file/);
  assert.throws(() => table('::published-runs kind=inference ids=llama3-405b-8192xh100'), /no published run matches these settings/);
});

test('layout degrees read off the calculator\'s layout text; a layout over DCN is none', () => {
  assert.deepEqual(layoutDegrees("fsdp 64 (N') x tp 8 (G) x pp 16 (N) on 8192 split N16"), { dp: 1, fsdp: 64, tp: 8, pp: 16, ep: 1 });
  assert.equal(layoutDegrees('fsdp 64 (XY) x pp 4 (Z) on 16x4x4 x dp 2 (DCN)'), null);
  assert.equal(readPublishedRuns().length, RUNS.length);
});
