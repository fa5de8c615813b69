// The site builder: the real book builds, and every authoring mistake fails the build with
// the file and line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSite } from '../../web/builder/build.mjs';
import { minified } from '../../web/builder/minify.mjs';
import { loadEngine } from '../../bindings/wasm/engine.mjs';

// The registry's calculators as its messages list them (not pinned: a new one touches no test here).
const CALCULATORS = (await loadEngine()).list().map((c) => c.name).join(', ');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scalebook-builder-'));
const realOut = path.join(tmp, 'site');
let built;

test('the book builds: an index of 13 sections, chapters 1 to 8 and 12', async () => {
  built = await buildSite({ out: realOut });
  assert.deepEqual(built.pages, ['01-roofline', '02-tpus', '03-sharding', '04-transformers', '05-training', '06-applied-training', '07-inference', '08-applied-inference', '12-gpus']);
  const index = fs.readFileSync(path.join(realOut, 'index.html'), 'utf8');
  assert.equal((index.match(/<li class="(ready|later)"/g) ?? []).length, 13);
  assert.equal((index.match(/class="coming">coming</g) ?? []).length, 4);
  assert.match(index, /<a href="01-roofline.html">Rooflines<\/a>/);
  assert.match(index, /<span class="number">12<\/span>\s*<div><h2><a href="12-gpus.html">GPUs<\/a>/);
  for (const asset of ['assets/scalebook.js', 'assets/site.css', 'assets/katex/katex.min.css', 'embed.html']) {
    assert.ok(fs.existsSync(path.join(realOut, asset)), asset);
  }
});

test('the bundle carries no element stylesheet, which comes once, from assets/css/', async () => {
  const { SHEETS } = await import('../../web/builder/sheets.mjs');
  const assets = path.join(realOut, 'assets');
  const js = fs.readdirSync(assets).filter((f) => f.endsWith('.js')).map((f) => fs.readFileSync(path.join(assets, f), 'utf8')).join('\n');
  // sb-sampler.js keeps its few lines inline, in the element itself.
  for (const [name, css] of Object.entries(SHEETS).filter(([name]) => name !== 'sampler')) {
    const lines = css.split('\n').map((l) => l.trim()).filter((l) => l.length > 30);
    assert.ok(lines.length > 0, name);
    for (const line of lines) assert.ok(!js.includes(line), `${name}'s "${line}" is in the bundle`);
    assert.equal(fs.readFileSync(path.join(assets, 'css', `${name}.css`), 'utf8'), minified(css, 'css'));
  }
});

test('every chapter page is given a smaller engine module than the whole engine', () => {
  // The whole engine (272 kB brotli) alone nearly fills a chapter's 300 kB read-through budget
  // (bench/page_weight.mjs); a page falls back to it when no module holds its domains.
  for (const page of built.pages) {
    const html = fs.readFileSync(path.join(realOut, `${page}.html`), 'utf8');
    const name = html.match(/<meta name="scalebook-engine" content="([^"]+)">/)?.[1];
    assert.ok(name && name !== 'scalebook-engine', `${page} gets ${name}: give it a module in bindings/wasm/CMakeLists.txt`);
  }
});

test('every stylesheet, script and engine a page links is in the built site', () => {
  for (const page of [...built.pages.map((p) => `${p}.html`), 'index.html', 'embed.html']) {
    const html = fs.readFileSync(path.join(realOut, page), 'utf8');
    const linked = [...html.matchAll(/(?:href|src)="(assets\/[^"#?]+)"/g)].map(([, file]) => file);
    assert.ok(linked.some((f) => f.startsWith('assets/css/')) || page === 'index.html' || page === 'embed.html', page);
    for (const file of linked) assert.ok(fs.existsSync(path.join(realOut, file)), `${page}: ${file}`);
  }
  // Each domain's sheets are written though no module imports them all at run time.
  for (const sheet of ['sharding', 'explorer', 'catalog', 'progress']) {
    assert.ok(fs.readFileSync(path.join(realOut, 'assets/css', `${sheet}.css`), 'utf8').length > 200, sheet);
  }
});

test('the scripts carry one KaTeX: markdown-it-katex\'s own copy is not bundled beside the page\'s', () => {
  const assets = path.join(realOut, 'assets');
  const withKatex = fs.readdirSync(assets).filter((f) => f.endsWith('.js'))
    .filter((f) => fs.readFileSync(path.join(assets, f), 'utf8').includes('KaTeX parse error'));
  assert.equal(withKatex.length, 1, withKatex.join(', '));
});

test('chapter 1 has typeset math, engine numbers and live elements in its static HTML', () => {
  const html = fs.readFileSync(path.join(realOut, '01-roofline.html'), 'utf8');
  assert.match(html, /<span class="katex">/);
  // Exercise data (JSON for the browser) holds templates; what a reader sees must not.
  const visible = html.replace(/<script[^>]*>[^]*?<\/script>/g, '');
  assert.doesNotMatch(visible, /\$\$|\{\{|katex-error|TODO/);
  // Each number names its source in words and as the CLI command, in a note it is described by.
  assert.match(html, /<span class="sb-value" tabindex="0" aria-describedby="(src-\d+-\d+)" data-source="roofline.critical_intensity chip=tpu-v5e">240<span class="sb-source" id="\1" role="tooltip">Critical intensity on the TPU v5e, worked out by the roofline calculator. <code>scalebook calc roofline chip=tpu-v5e<\/code><\/span><\/span>/);
  assert.match(html, /data-source="matmul.critical_batch chip=tpu-v5e">240<span class="sb-source"/);
  // A chip's own figure says where the catalog has it from.
  assert.match(html, /data-source="roofline.peak_flops chip=h100">[^<]+<span class="sb-source" id="src-\d+-\d+" role="tooltip">Peak FLOP\/s of the NVIDIA H100 SXM, from the chip catalog: [^<]+\. <code>scalebook calc roofline chip=h100<\/code>/);
  assert.match(html, /<sb-roofline id="roof" chip="tpu-v5e" flops="1e12" bytes="1e9"><template shadowrootmode="open">/);
  assert.match(html, /<sb-matmul id="mm" chip="tpu-v5e" b="256" d="8192" f="8192"><template shadowrootmode="open">/);
  assert.match(html, /<sb-roofline-plot for="roof" chips="tpu-v5e,tpu-v6e,h100"><template shadowrootmode="open"><link rel="stylesheet" href="assets\/css\/shadow.css"><div class="plot" data-plot><svg/);
  assert.equal((html.match(/<sb-exercise /g) ?? []).length, 13);
});

function site(markdown, { exercises } = {}) {
  const dir = fs.mkdtempSync(path.join(tmp, 'case-'));
  fs.mkdirSync(path.join(dir, 'chapters'));
  fs.mkdirSync(path.join(dir, 'exercises'));
  fs.writeFileSync(path.join(dir, 'chapters/toc.json'), JSON.stringify({
    title: 'T', subtitle: 'S',
    sections: [{ number: 1, slug: '01-x', title: 'X', summary: 'x', file: 'x.md' }],
  }));
  fs.writeFileSync(path.join(dir, 'chapters/x.md'), markdown);
  if (exercises) {
    const text = typeof exercises === 'string' ? exercises : JSON.stringify(exercises, null, 2);
    fs.writeFileSync(path.join(dir, 'exercises/x.json'), text);
  }
  return {
    dir,
    build: () => buildSite({
      chaptersDir: path.join(dir, 'chapters'),
      exercisesDir: path.join(dir, 'exercises'),
      out: path.join(dir, 'dist'),
    }),
  };
}

async function buildError(markdown, options) {
  const s = site(markdown, options);
  const error = await s.build().then(() => null, (e) => e);
  assert.ok(error, 'the build should fail');
  assert.equal(error.name, 'BuildError', String(error));
  return error.message.replaceAll(`${s.dir}/`, '');
}

test('exercise units written "us" read µs on the page', () => {
  const html = fs.readFileSync(path.join(realOut, '01-roofline.html'), 'utf8');
  const visible = html.replace(/<script[^>]*>[^]*?<\/script>/g, '');
  const solutions = fs.readFileSync(path.join(realOut, '01-roofline-solutions.html'), 'utf8');
  assert.match(solutions, /Answer: <strong>174\.4 \u00b5s<\/strong>/);
  assert.match(visible, /<span class="unit">\(\u00b5s\)<\/span>/);
  assert.doesNotMatch(visible + solutions, /\(us\)<|\d us</);
});

test('every chapter ends by saying what comes next, written or not', () => {
  const three = fs.readFileSync(path.join(realOut, '03-sharding.html'), 'utf8');
  assert.match(three, /<span class="next">Next: <a href="04-transformers.html">4\. Transformer math<\/a> →<\/span>/);
  const four = fs.readFileSync(path.join(realOut, '04-transformers.html'), 'utf8');
  assert.match(four, /<span class="next">Next: <a href="05-training.html">5\. Parallelism for training<\/a> →<\/span>/);
  const five = fs.readFileSync(path.join(realOut, '05-training.html'), 'utf8');
  assert.match(five, /<span class="next">Next: <a href="06-applied-training.html">6\. Training LLaMA 3<\/a> →<\/span>/);
  const six = fs.readFileSync(path.join(realOut, '06-applied-training.html'), 'utf8');
  assert.match(six, /<span class="next">Next: <a href="07-inference.html">7\. Inference<\/a> →<\/span>/);
  const seven = fs.readFileSync(path.join(realOut, '07-inference.html'), 'utf8');
  assert.match(seven, /<span class="next">Next: <a href="08-applied-inference.html">8\. Serving LLaMA 3<\/a> →<\/span>/);
  const eight = fs.readFileSync(path.join(realOut, '08-applied-inference.html'), 'utf8');
  assert.match(eight, /<span class="next">Next: 9\. Profiling <span class="coming">coming<\/span><span class="next-summary">From JAX to HLO/);
  // The last section of the contents has nothing after it.
  const twelve = fs.readFileSync(path.join(realOut, '12-gpus.html'), 'utf8');
  assert.doesNotMatch(twelve, /class="next"/);
});

test('every page starts with a skip link to its text', () => {
  for (const [file, id] of [['index.html', 'contents'], ['01-roofline.html', 'chapter-1'], ['04-transformers.html', 'chapter-4']]) {
    const html = fs.readFileSync(path.join(realOut, file), 'utf8');
    assert.match(html, new RegExp(`<body>\\n<a class="skip-link" href="#${id}">Skip to the text</a>`), file);
    assert.match(html, new RegExp(`<main [^>]*id="${id}"`), file);
  }
});

test("embed.html's snippet holds every element its own demo uses, with the same attributes", () => {
  const html = fs.readFileSync(path.join(realOut, 'embed.html'), 'utf8');
  const snippet = html.match(/<pre><code>([^]*?)<\/code><\/pre>/)[1]
    .replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&amp;', '&');
  const demo = html.slice(html.indexOf('</pre>'));
  const elements = (text) => [...text.matchAll(/<sb-[a-z-]+[^>]*><\/sb-[a-z-]+>/g)].map((m) => m[0]);
  assert.ok(elements(demo).length >= 2);
  assert.deepEqual(elements(snippet), elements(demo));
});

test('authoring mistakes fail the build with file and line', async () => {
  const cases = [
    ['# T\n\nA {{nope.t_compute}}.\n', `chapters/x.md:3: {{nope.t_compute}}: unknown calculator "nope"; choose one of ${CALCULATORS}`],
    ['# T\n\n{{roofline.time}}\n', /^chapters\/x\.md:3: \{\{roofline\.time\}\}: roofline has no output "time"; its outputs are t_compute, /],
    ['# T\n\nx\ny {{roofline.t_compute bytes=-5}}\n', 'chapters/x.md:4: {{roofline.t_compute bytes=-5}}: bytes must be > 0, got -5'],
    ['# T\n\n{{roofline.t_compute | bogus}}\n', 'chapters/x.md:3: {{roofline.t_compute | bogus}}: unknown format "bogus"; use si, sci, int, num, raw'],
    ['# T\n\n::chart roofline\n', 'chapters/x.md:3: unknown directive "::chart"; use ::calculator, ::plot, ::exercise, ::systolic-sim, ::chip-table, ::slice, ::my-chip, ::sharding, ::sharded-matmul, ::collective-sim, ::transformer, ::model-config, ::pipeline, ::training-search, ::training-budget, ::training-split, ::training-plan, ::serving, ::gpu-planner, ::gpu-cluster, ::gpu-kernel, ::gpu-chip, ::gpu-collective-sim, ::published-runs'],
    ['# T\n\n::calculator transformer\n', 'chapters/x.md:3: ::calculator: the transformer calculator has its own element: use ::transformer key=value ...'],
    ['# T\n\n::transformer K=12\n', 'chapters/x.md:3: ::transformer: K must divide N (64), got 12'],
    ['# T\n\n{{model.Q model=llama-3-70b}}\n', /^chapters\/x\.md:3: \{\{model\.Q model=llama-3-70b\}\}: models have no field "Q"; use L, D, F, /],
    ['# T\n\n{{model.D model=gpt-5}}\n', /^chapters\/x\.md:3: \{\{model\.D model=gpt-5\}\}: unknown model "gpt-5"; choose from llama-3-70b, /],
    ['# T\n\n{{model.D}}\n', 'chapters/x.md:3: {{model.D}}: expected model.FIELD model=ID'],
    ['# T\n\n::calculator roofline flop=1\n', /^chapters\/x\.md:3: ::calculator: roofline has no input "flop"/],
    ['# T\n\n::calculator matmul B=2.5\n', 'chapters/x.md:3: ::calculator: B must be a whole number, got 2.5'],
    ['# T\n\n::calculator rooflines\n', `chapters/x.md:3: ::calculator: unknown calculator "rooflines"; choose one of ${CALCULATORS}`],
    ['# T\n\n::plot roofline for=r\n', 'chapters/x.md:3: ::plot: no calculator with id "r" above this plot'],
    ['# T\n\n::plot collective-sweep op=gather\n', 'chapters/x.md:3: ::plot: op must be one of all-gather, reduce-scatter, all-reduce, all-to-all, got "gather"'],
    ['# T\n\n::plot collective-sweep size=16\n', 'chapters/x.md:3: ::plot: collective-sweep has no setting "size"; use op, chip, axis_size, axes, wraparound, latency, cluster, in_network'],
    ['# T\n\n::plot collective-sweep axis_size=16 axes=4x4\n', 'chapters/x.md:3: ::plot: give axis_size or axes, not both'],
    ['# T\n\n::plot collective-sweep axes=4x\n', 'chapters/x.md:3: ::plot: axes must be sizes joined by x, like 4x4, got "4x"'],
    ['# T\n\n::plot bandwidth\n', 'chapters/x.md:3: ::plot: expected ::plot KIND with KIND one of roofline, batch-sweep, collective-sweep, collective-scaling'],
    ['# T\n\n::exercise nope\n', 'chapters/x.md:3: ::exercise: unknown exercise "nope"'],
    ['# T\ntext\n::exercise nope\n', 'chapters/x.md:3: ::exercise: a directive must be a paragraph of its own (blank lines around it)'],
    ['# T\n\nok\n\n$$\n\\frac{1}\n$$\n', /^chapters\/x\.md:6: ParseError: KaTeX parse error/],
    ['no title\n', 'chapters/x.md:1: a chapter needs a # title'],
  ];
  for (const [markdown, expected] of cases) {
    const message = await buildError(markdown);
    if (typeof expected === 'string') assert.equal(message, expected);
    else assert.match(message, expected);
  }
});

const goodExercise = {
  id: 'e1', section: 's', book_ref: 'roofline-ex3', title: 'T', prompt: 'Find $B$ on a {{chip}}.',
  params: { chip: { book: 'tpu-v5e', choices: ['tpu-v5e', 'h100'] } },
  parts: [{
    calculator: 'matmul', inputs: { chip: '$chip' }, output: 'critical_batch', unit: 'tokens',
    tolerance: { rel: 0.02 }, book: { value: 240, tolerance_rel: 0.01 },
  }],
};

// withPart({}) written out: line 4 opens the exercise, 19 "parts", 21 "calculator", 23 the chip
// input, 25 "output", 26 "unit", 27 "tolerance", 30 "book", 34 a key added to the part.
function withPart(change) {
  return { chapter: '01-x', exercises: [{ ...goodExercise, parts: [{ ...goodExercise.parts[0], ...change }] }] };
}

test('an exercise is checked against the engine and the book', async () => {
  const page = '# T\n\n::exercise e1\n';
  const ok = site(page, { exercises: withPart({}) });
  await ok.build();
  const html = fs.readFileSync(path.join(ok.dir, 'dist/01-x.html'), 'utf8');
  assert.match(html, /Find <span class="katex">[^]*on a TPU v5e\./);
  // The worked solution is on the solutions page; the part links to it.
  assert.doesNotMatch(html, /Answer: <strong>/);
  assert.match(html, /<div id="e1-a-solution" data-solution data-src="01-x-solutions\.html#e1-a-solution"><p class="sb-exercise-solution-link" data-solution-link><a href="01-x-solutions\.html#e1-a-solution">Read the worked solution<\/a>/);
  const solutions = fs.readFileSync(path.join(ok.dir, 'dist/01-x-solutions.html'), 'utf8');
  assert.match(solutions, /<a href="01-x\.html#e1">[^<]+<\/a><\/h2><h3>[^<]*<\/h3><div id="e1-a-solution" data-solution><ol class="steps">/);
  assert.match(solutions, /Answer: <strong>240\.2 tokens<\/strong>/);
  assert.match(solutions, /<link rel="stylesheet" href="assets\/css\/math\/01-x-solutions\.css">/);
  // Its data is a file of the chapter's, fetched only when a reader needs it.
  assert.match(html, /<sb-exercise id="e1" chapter="01-x" data-src="assets\/exercises\/01-x\.json">/);
  assert.doesNotMatch(html, /data-exercise>/);
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(ok.dir, 'dist/assets/exercises/01-x.json'), 'utf8')),
    withPart({}));
  assert.match(html, /<sb-progress chapter="01-x" exercises="\[&quot;e1&quot;\]">/);
  const cases = [
    // Each at the line of the field at fault (see the file's layout above withPart).
    [withPart({ book: { value: 250, tolerance_rel: 0.01 } }),
      /^exercises\/x\.json:30: exercise e1: part a: the engine gives 240\.244 tokens but the book 250 \(3\.9% apart\); fix the inputs or add book\.erratum$/],
    [withPart({ output: 'critical' }), /^exercises\/x\.json:25: exercise e1: part a: matmul has no numeric output "critical"/],
    [withPart({ unit: 'ms' }), /^exercises\/x\.json:26: exercise e1: part a: unit "ms" does not measure the answer \(tokens\)/],
    [withPart({ inputs: { chip: 'a200' } }), /^exercises\/x\.json:23: exercise e1: part a: chip must be one of/],
    [withPart({ inputs: { chip: '$gpu' } }), /^exercises\/x\.json:23: exercise e1: part a: input chip refers to unknown parameter \$gpu/],
    [withPart({ kind: 'multiple' }), /^exercises\/x\.json:34: exercise e1: parts\[0\]\.kind must be number or choice, got "multiple"$/],
  ];
  for (const [exercises, expected] of cases) {
    assert.match(await buildError(page, { exercises }), expected);
  }
  const erratum = withPart({ book: { value: 250, tolerance_rel: 0.01, erratum: 'the book rounds up' } });
  await site(page, { exercises: erratum }).build();
  assert.match(await buildError('# T\n\nnothing\n', { exercises: withPart({}) }),
    /x\.json:\d+: exercise e1 is not placed in 01-x \(add ::exercise e1\)/);
  const broken = { chapter: '01-x', exercises: [{ ...goodExercise, title: undefined }] };
  // A missing field has no line of its own: the exercise's first line.
  assert.match(await buildError(page, { exercises: broken }), /^exercises\/x\.json:4: exercise e1: title is missing$/);
});

const UNTYPESET = 'inline math is $...$ within one paragraph, with no letter or digit just outside ' +
  'either $ (write $128 \\times 128$, not 128$\\times$128); a dollar sign is \\$';

test('slips that markdown-it would show as raw text fail the build at their line', async () => {
  const cases = [
    ['# T\n\nok\n\nthe time $T = W / B and more\n', `chapters/x.md:5: math left untypeset in "the time $T = W / B and more": ${UNTYPESET}`],
    ['# T\n\none\ntwo 128$\\times$128 three\n', `chapters/x.md:4: math left untypeset in "two 128$\\times$128 three": ${UNTYPESET}`],
    ['# T\n\n- a\n- b $x\n', `chapters/x.md:4: math left untypeset in "b $x": ${UNTYPESET}`],
    ['# T\n\n| a | b |\n|---|---|\n| 1 | $x |\n', `chapters/x.md:5: math left untypeset in "$x": ${UNTYPESET}`],
    ['# T\n\nok\n\n$$\nx^2\n\nmore text\n', 'chapters/x.md:5: $$ has no closing $$ (display math is a paragraph of its own between $$ lines)'],
    ['# T\n\nA {{roofline.t_compute chip=tpu-v5e\n', 'chapters/x.md:3: "{{" has no closing "}}" on its line in "A {{roofline.t_compute chip=tpu-v5e" (an engine value is {{calculator.output key=value | format}} on one line)'],
    ['# T\n\n  ::exercise e1\n', 'chapters/x.md:3: ::exercise: a directive must start at column 0, not indented or inside a list item or quote'],
    ['# T\n\n- ::calculator roofline\n', 'chapters/x.md:3: ::calculator: a directive must start at column 0, not indented or inside a list item or quote'],
    ['# T\n\n1. step\n\n   ::plot roofline\n', 'chapters/x.md:5: ::plot: a directive must start at column 0, not indented or inside a list item or quote'],
    ['# T\n\n> ::my-chip\n', 'chapters/x.md:3: ::my-chip: a directive must start at column 0, not indented or inside a list item or quote'],
    ['# T\n\na 128\\times 128 array\n', 'chapters/x.md:3: TeX "\\times" outside math in "a 128\\times 128 array": put the formula between $ signs'],
    ['# T\n\nthe time \\(T\\) is\n', 'chapters/x.md:3: TeX "\\(...\\)" math: write inline math as $...$'],
  ];
  for (const [markdown, expected] of cases) assert.equal(await buildError(markdown), expected);
  // What is meant as text stays text: an escaped dollar, code, a closed formula.
  const ok = site('# T\n\nA \\$5 chip, $x$ and `$y {{ \\z`.\n\n```\n::exercise e1 $ {{\n```\n');
  await ok.build();
});

test('math that reaches a page outside Markdown fails the build at the page\'s line, naming its source', async () => {
  // The page is written before the check, so the line can be looked up in it.
  const pageLine = (s, text) => {
    const html = fs.readFileSync(path.join(s.dir, 'dist/01-x.html'), 'utf8');
    return html.slice(0, html.indexOf(text)).split('\n').length;
  };
  const raw = site('# T\n\n<div>raw $x + y$</div>\n');
  const rawError = await raw.build().then(() => null, (e) => e.message.replaceAll(`${raw.dir}/`, ''));
  assert.equal(rawError, `dist/01-x.html:${pageLine(raw, 'raw $x')}: math left untypeset on the page built from chapters/x.md: "raw $x + y$"`);
  const title = site('# T\n\n::exercise e1\n', { exercises: { chapter: '01-x', exercises: [{ ...goodExercise, title: 'The $B$ at the knee' }] } });
  const titleError = await title.build().then(() => null, (e) => e.message.replaceAll(`${title.dir}/`, ''));
  assert.equal(titleError, `dist/01-x.html:${pageLine(title, 'The $B$')}: math left untypeset on the page built from chapters/x.md: "The $B$ at the knee"`);
  assert.ok(pageLine(title, 'The $B$') > 1);
});

test('an exercise file that is not JSON fails the build at the line of the slip', async () => {
  const page = '# T\n\n::exercise e1\n';
  const text = JSON.stringify(withPart({}), null, 2);
  const cases = [
    [text.replace('"tokens",', '"tokens"'), 'exercises/x.json:27: not valid JSON: expected "," or "}" after a value, got """'],
    [text.replace('"rel": 0.02', '"rel": 0.02,'), 'exercises/x.json:29: not valid JSON: a trailing comma: expected another value, got "}"'],
    [text.replace('"matmul"', "'matmul'"), 'exercises/x.json:21: not valid JSON: expected a value (an object, list, string, number, true, false or null), got "\'"'],
    [text.slice(0, -4), 'exercises/x.json:37: not valid JSON: expected "," or "]" after a value, got the end of the file'],
  ];
  for (const [exercises, expected] of cases) assert.equal(await buildError(page, { exercises }), expected);
});

test('exercise prompts, part labels and hints are typeset, and a slip in one fails at its line', async () => {
  const typeset = { chapter: '01-x', exercises: [{
    ...goodExercise, hints: ['Compare $C / W$ with $B$.'],
    parts: [{ ...goodExercise.parts[0], label: 'batch ($T = 1$)' }],
  }] };
  const ok = site('# T\n\n::exercise e1\n', { exercises: typeset });
  await ok.build();
  const html = fs.readFileSync(path.join(ok.dir, 'dist/01-x.html'), 'utf8');
  assert.match(html, /<label for="e1-a-answer">batch \(<span class="katex">[^]*?<\/span>\) <span class="unit">\(tokens\)<\/span><\/label>/);
  // The hints wait, typeset, on the chapter's folds page until a reader opens them (lazy-folds.mjs).
  assert.match(html, /<details class="sb-exercise-hints" data-hints data-lazy="0"><summary>Hint<\/summary><p class="fold-link" data-fold-link><a href="assets\/folds\/01-x.html#fold-0">/);
  const folds = fs.readFileSync(path.join(ok.dir, 'dist/assets/folds/01-x.html'), 'utf8');
  assert.match(folds, /<section id="fold-0" [^>]*><h2 id="fold-0-title">Hint<\/h2><div class="sb-solutions"><div class="fold-body" data-fold-body><div class="sb-exercise-hint">Compare <span class="katex">/);
  const slip = (change) => ({ chapter: '01-x', exercises: [{ ...goodExercise, ...change }] });
  const cases = [
    [slip({ prompt: 'A {{chip}} has a 128$\\times$128 array.' }), `exercises/x.json:9: math left untypeset in "A TPU v5e has a 128$\\times$128 array.": ${UNTYPESET}`],
    [slip({ hints: ['fine $x$', 'then $y'] }), `exercises/x.json:38: math left untypeset in "then $y": ${UNTYPESET}`],
    [slip({ parts: [{ ...goodExercise.parts[0], label: 'at $T = S' }] }), `exercises/x.json:34: math left untypeset in "at $T = S": ${UNTYPESET}`],
  ];
  for (const [exercises, expected] of cases) assert.equal(await buildError('# T\n\n::exercise e1\n', { exercises }), expected);
  // The book's variant is fine; another seed draws a word that leaves a $ untypeset in the browser.
  const drawn = slip({ prompt: 'Find $B$ on a {{chip}} ({{word}}).',
    params: { ...goodExercise.params, word: { book: 'x', choices: ['x', '$y'] } } });
  assert.equal(await buildError('# T\n\n::exercise e1\n', { exercises: drawn }),
    `exercises/x.json:9: exercise e1: variant 4: math left untypeset in "on a NVIDIA H100 SXM ($y).": ${UNTYPESET}`);
});

test('the book\'s exercises show no raw TeX: chapter 2\'s array size, chapter 4\'s part labels', () => {
  const tpus = fs.readFileSync(path.join(realOut, '02-tpus.html'), 'utf8');
  assert.match(tpus, /is a <span class="katex">[^]*?128[^]*?<\/span> systolic array/);
  const transformers = fs.readFileSync(path.join(realOut, '04-transformers.html'), 'utf8');
  assert.match(transformers, /\(a\) prefill \(<span class="katex">/);
  // The exercise data (JSON for the browser) keeps the source; what a reader sees must not.
  assert.doesNotMatch(transformers.replace(/<script[^>]*>[^]*?<\/script>/g, ''), /\(\$T = S\$\)/);
});

test('a question\'s part "(c)" stays (c), at build time and in the browser\'s typesetter', async () => {
  const html = fs.readFileSync(path.join(realOut, '03-sharding.html'), 'utf8');
  assert.match(html, /\(c\) So what is strategy 1’s time/);
  assert.doesNotMatch(html, /©/);
  const { renderPrompt } = await import('../../web/runtime/core/typeset.js');
  assert.equal(renderPrompt('(a) one, (b) "two", (c) three'), '(a) one, (b) “two”, (c) three');
});

test('no chapter page carries its exercises\' data; the file it names holds each one placed, as exercises/ has it', () => {
  for (const page of built.pages) {
    const html = fs.readFileSync(path.join(realOut, `${page}.html`), 'utf8');
    assert.doesNotMatch(html, /<script[^>]*data-exercise/, page);
    const placed = [...html.matchAll(/<sb-exercise id="([^"]+)" chapter="([^"]+)" data-src="([^"]+)">/g)];
    assert.equal(placed.length, (html.match(/<sb-exercise[\s>]/g) ?? []).length, page);
    assert.ok(placed.length > 0, page);
    assert.deepEqual(new Set(placed.map(([, , chapter, src]) => `${chapter} ${src}`)), new Set([`${page} assets/exercises/${page}.json`]));
    const data = JSON.parse(fs.readFileSync(path.join(realOut, 'assets/exercises', `${page}.json`), 'utf8'));
    const source = JSON.parse(fs.readFileSync(new URL(`../../exercises/${page}.json`, import.meta.url), 'utf8'));
    assert.equal(data.chapter, page);
    assert.deepEqual(data.exercises.map((e) => e.id), placed.map(([, id]) => id), page);
    for (const spec of data.exercises) assert.deepEqual(spec, source.exercises.find((e) => e.id === spec.id), spec.id);
  }
});

test('the progress list follows the order the chapter places its exercises in, not the file\'s', async () => {
  const exercises = { chapter: '01-x', exercises: [{ ...goodExercise, id: 'e1' }, { ...goodExercise, id: 'e2' }] };
  const ok = site('# T\n\n::exercise e2\n\ntext\n\n::exercise e1\n', { exercises });
  await ok.build();
  const html = fs.readFileSync(path.join(ok.dir, 'dist/01-x.html'), 'utf8');
  assert.match(html, /<sb-progress chapter="01-x" exercises="\[&quot;e2&quot;,&quot;e1&quot;\]">/);
  const index = fs.readFileSync(path.join(ok.dir, 'dist/index.html'), 'utf8');
  assert.match(index, /&quot;exercises&quot;:\[&quot;e2&quot;,&quot;e1&quot;\]/);
});

test("the book's search index holds chapter 1's critical token batch, by its heading's id, and no KaTeX markup", () => {
  const documents = JSON.parse(fs.readFileSync(path.join(realOut, 'assets/search-index.json'), 'utf8'));
  const batch = documents.find((d) => d.href === '01-roofline.html#the-critical-token-batch');
  assert.deepEqual([batch?.chapter, batch?.title], [1, 'The critical token batch']);
  assert.ok(documents.some((d) => d.href === '03-sharding.html' && d.title === 'Sharded matrices'));
  assert.doesNotMatch(JSON.stringify(documents), /katex|<span|shadowroot| sub crit /);
});

test('outputs= shows only the named outputs, and an unknown one fails at its line', async () => {
  const five = fs.readFileSync(path.join(realOut, '05-training.html'), 'utf8');
  const estimate = /<sb-training-budget id="estimate" outputs="([^"]*)"[^]*?<\/sb-training-budget>/.exec(five);
  assert.ok(estimate, 'the estimator is on chapter 5');
  assert.equal((estimate[0].match(/<dd data-output=/g) ?? []).length, estimate[1].split(',').length);
  assert.match(estimate[0], /data-output="chips_usable">19737 chips/);
  assert.equal(await buildError('# T\n\nText.\n\n::training-budget outputs=chips,chips_used\n'),
    'chapters/x.md:5: ::training-budget: outputs: training-budget has no output "chips_used"');
});
