// A model from a config.json: `scalebook model --from-config`, `calc --model-config` and the
// WASM API's modelFromConfig agree, and bad input is refused naming the key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadEngine, CalculatorError } from '../../bindings/wasm/engine.mjs';

const CLI = process.env.SCALEBOOK_CLI ??
  fileURLToPath(new URL('../../build/native/bindings/cli/scalebook', import.meta.url));
const CONFIGS = fileURLToPath(new URL('../fixtures/model-configs/', import.meta.url));
const config = (id) => path.join(CONFIGS, `${id}.json`);

function run(...args) {
  const r = spawnSync(CLI, args, { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function scratch(text) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-config-')), 'config.json');
  fs.writeFileSync(file, text);
  return file;
}

test('model --from-config prints the model as `model ID` does, plus the mapping, as JSON when piped', async () => {
  const r = run('model', '--from-config', config('llama-3-70b'));
  assert.equal(r.code, 0, r.err);
  const got = JSON.parse(r.out);
  const preset = JSON.parse(run('model', 'llama-3-70b').out);
  assert.equal(got.id, 'custom');
  assert.equal(got.name, 'LlamaForCausalLM');
  assert.equal(got.params, preset.params);
  assert.deepEqual(got.fields.map((f) => [f.name, f.value]), preset.fields.map((f) => [f.name, f.value]));
  assert.deepEqual(got.mapping[0], { field: 'L', key: 'num_hidden_layers', value: 80, note: 'num_hidden_layers' });
  assert.deepEqual(got.mapping.find((m) => m.field === 'H'), { field: 'H', key: null, value: 128, note: 'absent: hidden_size / num_attention_heads' });
  assert.deepEqual(got.unmapped.find((u) => u.key === 'rope_theta'), { key: 'rope_theta', kind: 'ignored', reason: 'no effect on sizes or FLOPs' });
  assert.equal(got.inputs.model, 'custom');
  // The WASM API reads the same text into the same JSON, bit for bit.
  const engine = await loadEngine();
  assert.deepEqual(engine.modelFromConfig(fs.readFileSync(config('llama-3-70b'), 'utf8')), got);
});

test('--text prints each field with its key, then the keys not mapped', () => {
  const r = run('--text', 'model', '--from-config', config('gemma-2-27b'));
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^custom {2}Gemma2ForCausalLM \(2\.72e10 params, 2\.72e10 active\)$/m);
  assert.match(r.out, /^ {2}L {19}46 layers\n {6}config\.json: num_hidden_layers$/m);
  assert.match(r.out, /^config keys not mapped:$/m);
  assert.match(r.out, /^ {2}sliding_window {16}not modelled: sliding-window \(local\) attention/m);
});

test('calc --model-config gives a calculator the config\'s model; a field on the line overrides it', () => {
  const viaConfig = JSON.parse(run('calc', 'transformer', '--model-config', config('deepseek-v3')).out);
  const preset = JSON.parse(run('calc', 'transformer', 'model=deepseek-v3').out);
  assert.equal(viaConfig.params, preset.params);
  assert.equal(viaConfig.flops_forward, preset.flops_forward);
  const mqa = JSON.parse(run('calc', 'transformer', '--model-config', config('llama-3-8b'), 'K=1').out);
  assert.equal(mqa.kv_bytes_per_token, JSON.parse(run('calc', 'transformer', 'model=llama-3-8b', 'K=1').out).kv_bytes_per_token);
  const training = run('calc', 'training', '--model-config', config('llama-3-70b'), 'chip=tpu-v5p', 'shape=16x16x16', 'B=4194304', 'T=1024');
  assert.equal(training.code, 0, training.err);
  const trainingPreset = run('calc', 'training', 'model=llama-3-70b', 'chip=tpu-v5p', 'shape=16x16x16', 'B=4194304', 'T=1024');
  assert.equal(JSON.parse(training.out).step_time, JSON.parse(trainingPreset.out).step_time);
  const sweep = run('sweep', 'transformer', '--model-config', config('llama-3-8b'), '--over', 'T', '--values', '1024,2048', '--outputs', 'params');
  assert.equal(sweep.code, 0, sweep.err);
});

test('bad configs and misuse exit 2 naming the key or option', () => {
  const cases = [
    [['model', '--from-config', scratch('{"hidden_size": 4096}')], 'num_hidden_layers',
      'config.json has no num_hidden_layers (L), no intermediate_size (F), no num_attention_heads (N), no vocab_size (V)'],
    [['model', '--from-config', scratch('not json')], 'config', 'config.json is not JSON: a syntax error at line 1, column 2'],
    [['model', '--from-config', scratch(' '.repeat(300000))], 'config', 'config.json must be at most 262144 bytes, got 262145'],
    [['model', '--from-config', '/no/such/config.json'], 'from-config', 'cannot read --from-config "/no/such/config.json": No such file or directory'],
    [['calc', 'roofline', '--model-config', config('llama-3-8b')], 'model-config', 'roofline has no model input for --model-config'],
    [['calc', 'transformer', 'model=llama-3-8b', '--model-config', config('llama-3-8b')], 'model', 'give model=... or --model-config, not both'],
    [['calc', 'transformer', '--model-config', scratch('{"num_hidden_layers": 2.5}')], 'num_hidden_layers', 'num_hidden_layers must be a whole number, got 2.5'],
  ];
  for (const [args, field, message] of cases) {
    const r = run(...args);
    assert.equal(r.code, 2, args.join(' '));
    assert.equal(r.err, `scalebook: ${message}\n`);
    assert.equal(JSON.parse(r.out).error.field, field);
  }
});

test('modelFromConfig refuses what is not a string, or too long, before it enters WASM', async () => {
  const engine = await loadEngine();
  const refused = (value, message, field = 'config') => assert.throws(() => engine.modelFromConfig(value),
    (err) => err instanceof CalculatorError && err.field === field && err.message === message);
  refused(undefined, 'config must be text, got undefined');
  refused({ hidden_size: 1 }, 'config must be text, got an object');
  refused(42, 'config must be text, got a number');
  refused('x'.repeat(262145), 'config must be at most 262144 characters, got 262145');
  // Under the cap in characters but over it in bytes: the engine counts bytes.
  refused('é'.repeat(200000), 'config.json must be at most 262144 bytes, got 400000');
  refused('[]', 'config.json must be a JSON object, got a list');
  refused('{"vocab_size": -1}', 'vocab_size must be from 1 to 1e8, got -1', 'vocab_size');
  assert.throws(() => engine.modelFromConfig('{\n "a": }'), (err) => err.position === 8 &&
    err.message === 'config.json is not JSON: a syntax error at line 2, column 7');
});
