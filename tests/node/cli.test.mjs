// The native scalebook CLI agrees with the WASM API and reports bad input with exit 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadEngine } from '../../bindings/wasm/engine.mjs';

// SCALEBOOK_CLI points the suite at another build, e.g. the ASan one.
const CLI = process.env.SCALEBOOK_CLI ??
  fileURLToPath(new URL('../../build/native/bindings/cli/scalebook', import.meta.url));

function run(...args) {
  const r = spawnSync(CLI, args, { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('calc prints the same outputs as the WASM engine, as JSON when piped', async () => {
  const r = run('calc', 'roofline', 'flops=1e12', 'bytes=1e9', 'chip=tpu-v5e');
  assert.equal(r.code, 0);
  const { steps, ...expected } = (await loadEngine()).calculate('roofline', { flops: 1e12, bytes: 1e9, chip: 'tpu-v5e' });
  assert.deepEqual(JSON.parse(r.out), expected);
  assert.equal(JSON.parse(r.out).bound, 'compute');
  const explained = JSON.parse(run('calc', 'roofline', '--explain', 'flops=1e12', 'bytes=1e9').out);
  assert.deepEqual(explained.steps, steps);
});

test('schema, list and chips agree with the WASM engine', async () => {
  const engine = await loadEngine();
  assert.deepEqual(JSON.parse(run('schema', 'matmul').out), engine.schema('matmul'));
  assert.deepEqual(JSON.parse(run('list').out), engine.list());
  assert.deepEqual(JSON.parse(run('chips').out), engine.chips());
  assert.deepEqual(JSON.parse(run('chip', 'h100').out), engine.chips().find((c) => c.id === 'h100'));
});

test('--text gives readable text and --json may stand anywhere', () => {
  const text = run('--text', 'calc', 'matmul', 'chip=h100');
  assert.equal(text.code, 0);
  assert.match(text.out, /^critical_batch\s+295\.224 tokens$/m);
  assert.match(text.out, /^t_compute\s+3\.47\d+e-5 s\s+34\.7 µs$/m);
  const json = run('calc', 'matmul', '--text', 'chip=h100', '--json');
  assert.equal(JSON.parse(json.out).bound, 'memory');
});

test('bad input exits 2 with one line naming the field, and a JSON error object', async () => {
  const cases = [
    [['calc', 'roofline', 'bytes=-5'], 'bytes', 'bytes must be > 0, got -5'],
    [['calc', 'matmul', 'B=2.5'], 'B', 'B must be a whole number, got 2.5'],
    [['calc', 'matmul', 'chip=tpu-v9'], 'chip', 'chip must be one of tpu-v5e, tpu-v5p, tpu-v6e, tpu-v4p, h100, tpu-v3, tpu7x, v100, a100, h200, h800, b200, gb200, got "tpu-v9"'],
    [['calc', 'roofline', 'flops=nan'], 'flops', 'flops must be a number, got "nan"'],
    [['calc', 'roofline', 'flops'], '', 'expected name=value, got "flops"'],
    [['calc', 'roofline', 'flops=1', 'flops=2'], 'flops', 'flops is given twice'],
    [['calc', 'nope'], 'calculator', `unknown calculator "nope"; choose one of ${(await loadEngine()).list().map((c) => c.name).join(', ')}`],
    [['chip', 'a200'], 'chip', 'unknown chip "a200"; choose one of tpu-v5e, tpu-v5p, tpu-v6e, tpu-v4p, h100, tpu-v3, tpu7x, v100, a100, h200, h800, b200, gb200'],
    [['frobnicate'], '', 'unknown command "frobnicate"'],
  ];
  for (const [args, field, message] of cases) {
    const r = run(...args, '--json');
    assert.equal(r.code, 2, args.join(' '));
    assert.equal(r.err, `scalebook: ${message}\n`);
    assert.deepEqual(JSON.parse(r.out).error.field, field);
    assert.equal(JSON.parse(r.out).error.message, message);
  }
  // No command at all is an error too: usage and the message on stderr, nothing on stdout.
  const bare = run('--text');
  assert.equal(bare.code, 2);
  assert.equal(bare.out, '');
  assert.match(bare.err, /^usage: scalebook /);
  assert.match(bare.err, /scalebook: no command given\n$/);
  const unknown = run('--text', 'frobnicate');
  assert.equal(unknown.out, '');
  assert.match(unknown.err, /^usage: scalebook [\s\S]*scalebook: unknown command "frobnicate"\n$/);
  const plain = run('--text', 'calc', 'roofline', 'bytes=-5');
  assert.equal(plain.code, 2);
  assert.equal(plain.out, '');
});

test('training-search: --top sets how many rows, --export jax prints the best as code, text aligns a table', async () => {
  const engine = await loadEngine();
  const inputs = ['model=llama-3-8b', 'chips=256', 'B=1048576', 'T=4096'];
  const json = run('calc', 'training-search', ...inputs, '--top', '3');
  assert.equal(json.code, 0);
  const result = JSON.parse(json.out);
  assert.equal(result.top.length, 3);
  const expected = engine.calculate('training-search', { model: 'llama-3-8b', chips: 256, B: 1048576, T: 4096, top: 3 }, { steps: false });
  assert.equal(result.best, expected.best);
  const code = run('calc', 'training-search', ...inputs, '--export', 'jax');
  assert.equal(code.code, 0);
  assert.equal(code.out, expected.jax);
  assert.match(code.out, /^# .*\nimport jax\n/m);
  assert.match(code.out, /mesh = Mesh\(devices, \(/);
  const text = run('--text', 'calc', 'training-search', ...inputs, '--top', '2');
  assert.match(text.out, /^top:\n {2}Layout +Choices +Bound|^top:\n {2}Layout +Choices +Step time/m);
  assert.match(text.out, /\n {6}Why: /);
  assert.match(text.out, /jax {19}\(--export jax prints it\)\n/);
  for (const [args, field, message] of [
    [['calc', 'roofline', '--top', '3'], 'top', '--top applies to a calculator with a top input, and roofline has none'],
    [['calc', 'roofline', '--export', 'jax'], 'export', '--export applies to a calculator with code to export (training-search), and roofline has none'],
    [['calc', 'training-search', '--export', 'yaml'], 'export', '--export takes jax, got "yaml"'],
    [['calc', 'training-search', 'top=2', '--top', '3'], 'top', 'top is given twice'],
  ]) {
    const r = run('--json', ...args);
    assert.equal(r.code, 2, args.join(' '));
    assert.deepEqual([JSON.parse(r.out).error.field, JSON.parse(r.out).error.message], [field, message]);
  }
});

test('a text table keeps its columns aligned when a cell holds µs (two bytes, one column)', () => {
  const r = run('--text', 'calc', 'training-split');
  assert.equal(r.code, 0);
  const lines = r.out.split('\n');
  const head = lines.indexOf('splits:') + 1;
  const column = lines[head].indexOf('TP comms');
  assert.ok(column > 0);
  // The seven splits of 4x4x4, X = 1 to 64; X = 2 has FSDP comms in µs (93.2 µs), X = 1 none.
  const rows = lines.slice(head + 1, head + 8);
  assert.match(rows[1], /^ {2}2 chips +32 chips +2 axes +1 axes +93\.2 µs +4\.37 ms/);
  for (const row of rows) assert.match([...row].slice(column).join(''), /^\d[\d.]* (s|ms|µs) /, row);
});

test('training-plan --text: the planner\'s outputs, then its by-pods table with a column per field', () => {
  const r = run('--text', 'calc', 'training-plan', 'model=book-mlp', 'F=30000', 'B=2097152');
  assert.equal(r.code, 0);
  // 2,097,152 / (8960 x 2550^2 / (2 x 30000)) = 2.16: two pods of 8960 chips.
  assert.match(r.out, /^pods_at_mixed +2\.1597\d* pods$/m);
  assert.match(r.out, /^pods_recommended +2 pods$/m);
  assert.match(r.out, /^pods_mesh +2-way DP over DCN x 1024-way FSDP \(256 data x 4 sequence\) x 8-way TP on 16384 of 17920 chips$/m);
  const lines = r.out.split('\n');
  const head = lines.indexOf('by_pods:') + 1;
  assert.match(lines[head], /^ {2}Pods +Chips +Tokens per pod +Tokens per chip +FSDP holds +Mix holds +DCN holds +Bound +FSDP X +TP Y +Recommended/);
  const bound = lines[head].indexOf('Bound');
  const rows = lines.slice(head + 1, head + 5);
  assert.deepEqual(rows.map((row) => row.slice(bound).split(/ {2,}/)[0]),
    ['compute with FSDP+TP', 'compute with FSDP+TP', 'ICI-bound', 'ICI-bound']);
  assert.match(rows[1], /^ {2}2 pods +17920 chips +1\.05e6 tokens +117 tokens +no +yes +yes +compute with FSDP\+TP +1024 chips +8 chips +yes/);
});

// The commands and subcommands as the top-level help lists them: "  exercise show ID ...".
function listedCommands() {
  const help = run('--help');
  assert.equal(help.code, 0);
  const commands = new Map();
  for (const [, command, sub] of help.out.matchAll(/^ {2}([a-z]+)(?: ([a-z]+)\b)?/gm)) {
    if (!commands.has(command)) commands.set(command, new Set());
    if (sub) commands.get(command).add(sub);
  }
  return commands;
}

test('every command and subcommand the help lists answers --help and -h with its usage, exit 0', () => {
  const commands = listedCommands();
  assert.deepEqual([...commands.keys()], ['list', 'schema', 'calc', 'sweep', 'solve', 'simulate', 'chips', 'chip', 'models', 'model', 'exercise']);
  assert.deepEqual([...commands.get('exercise')], ['list', 'show', 'grade', 'check']);
  for (const [command, subs] of commands) {
    for (const words of [[command], ...[...subs].map((sub) => [command, sub])]) {
      for (const flag of ['--help', '-h']) {
        const r = run(...words, flag);
        assert.equal(r.code, 0, `${words.join(' ')} ${flag}: ${r.err}`);
        assert.equal(r.err, '');
        assert.match(r.out, /^usage: scalebook \[--json\|--text\] \[--explain\] COMMAND\n/);
        assert.ok(r.out.includes(`\n  ${words.join(' ')}`), `${words.join(' ')} ${flag}: ${r.out}`);
      }
    }
  }
  assert.equal(run('model', '--help').out,
    'usage: scalebook [--json|--text] [--explain] COMMAND\n' +
    '  model ID                  one model\'s configuration with its source notes\n' +
    '  model --from-config FILE  a model from a Hugging Face config.json: its fields, the key\n' +
    '                            each came from, and the keys it could not map\n');
  // A subcommand's help is its own lines; help CMD is CMD --help.
  assert.equal(run('exercise', 'grade', '-h').out,
    'usage: scalebook [--json|--text] [--explain] COMMAND\n' +
    '  exercise grade ID --answer A [--seed N] [--part P]\n' +
    '  (--exercises DIR or SCALEBOOK_EXERCISES picks the exercise folder)\n');
  assert.equal(run('help', 'model').out, run('model', '-h').out);
  // A calculator named on the line adds its schema.
  assert.match(run('calc', 'roofline', '--help').out, /^ {2}calc NAME [\s\S]*\n\nroofline: /m);
  const unknown = run('frobnicate', '--help', '--json');
  assert.equal(unknown.code, 2);
  assert.equal(unknown.err, 'scalebook: unknown command "frobnicate"\n');
});

test('an output without a value is null with its reason under absent, the same in the CLI and the WASM engine', async () => {
  const engine = await loadEngine();
  // A price of 0 is free compute, not a missing price.
  const free = JSON.parse(run('calc', 'training-budget', 'price_per_hour=0').out);
  assert.equal(free.cost, 0);
  assert.equal(free.absent.cost, undefined);
  const fast = JSON.parse(run('calc', 'matmul', 'peak_flops=1e21', 'dtype_weights=int4').out);
  assert.equal(fast.critical_batch_exact, null);
  assert.equal(fast.absent.critical_batch_exact,
    'never compute-bound: each token\'s activation bytes take longer to load than its FLOPs to compute, at any batch');
  assert.deepEqual(engine.calculate('matmul', { peak_flops: 1e21, dtype_weights: 'int4' }, { steps: false }), fast);
  const h100 = engine.calculate('chip', { chip: 'h100' }, { steps: false });
  assert.equal(h100.vmem_capacity, null);
  assert.equal(h100.absent.vmem_capacity, 'not applicable to a GPU: TPUs only');
  assert.equal(engine.schema('chip').outputs.find((o) => o.name === 'vmem_capacity').description,
    'VMEM (on-chip vector memory) per chip (TPUs only; absent on the others)');
  // Every null comes with its reason; text says both.
  for (const [name, value] of Object.entries(h100)) if (value === null) assert.ok(h100.absent[name], name);
  assert.match(run('--text', 'calc', 'chip', 'chip=h100').out, /^vmem_capacity +none \(not applicable to a GPU: TPUs only\)$/m);
});
