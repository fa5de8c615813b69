// Builds the site into dist/: chapters, index, embed demo, runtime bundle, KaTeX assets.
// Usage: node web/builder/build.mjs [--out DIR]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { engineModules, loadEngine } from '../../bindings/wasm/engine.mjs';
import { enginePicker } from './engine-pick.mjs';
import { useEngine } from '../runtime/core/format.js';
import { BuildError, readJson } from './errors.mjs';
import { checkPage } from './page-check.mjs';
import { loadExercises, writeExerciseData } from './exercises.mjs';
import { renderChapter } from './markdown.mjs';
import { chapterPage, indexPage, solutionsPage } from './templates.mjs';
import { embedPage } from './embed.mjs';
import { precompress } from './compress.mjs';
import { SHEETS } from './sheets.mjs';
import { minified } from './minify.mjs';
import { hoistPageStyles } from './page-styles.mjs';
import { writeSearchIndex } from './search-index.mjs';
import { writeKatexAssets } from './fonts.mjs';
import { writePageFaces } from './page-fonts.mjs';
import { elementFiles, workerFiles } from './domains.mjs';
import { linkedSheets } from './linked-sheets.mjs';
import { takeFolds, foldsMeta, foldsPage } from './lazy-folds.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WASM_DIR = path.join(ROOT, 'bindings/wasm/generated');

function readToc(chaptersDir) {
  const file = path.join(chaptersDir, 'toc.json');
  const root = readJson(file, fs.readFileSync(file, 'utf8'));
  const toc = root.value;
  toc.sections.forEach((s, i) => {
    if (s.file && !fs.existsSync(path.join(chaptersDir, s.file))) {
      throw new BuildError(file, root.members.get('sections').items[i].line, `section ${s.number}: no file ${s.file}`);
    }
  });
  return toc;
}

// mathRules: page slug -> the rules of the classes that stand for its KaTeX style attributes
// (page-styles.mjs);
// math: the built pages' HTML and the exercise files' texts, whose formulas the fonts must draw,
// and chapters: slug -> each chapter page's HTML (its closed sections in).
async function copyAssets(out, mathRules, math) {
  const assets = path.join(out, 'assets');
  fs.mkdirSync(path.join(assets, 'css'), { recursive: true });
  for (const [name, css] of Object.entries(SHEETS)) fs.writeFileSync(path.join(assets, 'css', `${name}.css`), minified(css, 'css'));
  // Each page's own: a reader of one chapter fetches its rules only (a shared file was 3 kB
  // brotli; chapter 3's half of it).
  // A chapter's also declares KaTeX's fonts, with its own cuts (page-fonts.mjs).
  const mathDir = path.join(assets, 'css', 'math');
  fs.mkdirSync(mathDir, { recursive: true });
  const katexDist = path.join(ROOT, 'node_modules/katex/dist');
  const cacheDir = path.join(ROOT, 'node_modules/.cache/scalebook-fonts');
  const site = await writeKatexAssets(katexDist, path.join(assets, 'katex'), math, { cacheDir });
  const pageFaces = await writePageFaces(katexDist, path.join(assets, 'katex'),
    { pages: math.chapters, site: new Map(site.map(({ file, chars }) => [file, chars])), cssDir: mathDir, cacheDir });
  for (const [slug, rules] of mathRules) {
    fs.writeFileSync(path.join(mathDir, `${slug}.css`), minified([...[...rules.values()].sort(), ...(pageFaces.get(slug) ?? [])].join('\n'), 'css'));
  }
  // The engine modules' .wasm beside the bundle, where engine.mjs's loader looks for them.
  for (const { name } of engineModules) {
    fs.copyFileSync(path.join(WASM_DIR, `${name}.wasm`), path.join(assets, `${name}.wasm`));
  }
  // <sb-model-config>'s examples: the presets' config.json files the engine's tests read.
  fs.cpSync(path.join(ROOT, 'tests/fixtures/model-configs'), path.join(assets, 'model-configs'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'web/static/favicon.svg'), path.join(assets, 'favicon.svg'));
  for (const [name, loader] of [['site.css', 'css'], ['file-notice.js', 'js']]) {
    fs.writeFileSync(path.join(assets, name), minified(fs.readFileSync(path.join(ROOT, 'web/static', name), 'utf8'), loader));
  }
}


// markdown-it-katex brings its own KaTeX, which it never calls (typeset.js hands it ours): every
// import of 'katex' resolves to the one the page uses, or the variant chunk carries two.
const oneKatex = {
  name: 'one-katex',
  setup(build) {
    build.onResolve({ filter: /^katex$/ }, () => ({ path: path.join(ROOT, 'node_modules/katex/dist/katex.mjs') }));
  },
};

// d3-scale's interpolators, for numbers only, and no tick formats (shims/d3-interpolate.js
// and shims/d3-format.js say why).
const numberInterpolate = {
  name: 'number-interpolate',
  setup(build) {
    build.onResolve({ filter: /^d3-interpolate$/ }, () => ({ path: path.join(ROOT, 'web/builder/shims/d3-interpolate.js') }));
    build.onResolve({ filter: /^d3-format$/ }, () => ({ path: path.join(ROOT, 'web/builder/shims/d3-format.js') }));
  },
};

// Returns the chunks (paths under assets/) that scalebook.js imports statically, and each
// element's chunks by tag (index.js imports an element's code once the page has one).
async function bundleRuntime(out) {
  // Splitting keeps KaTeX and markdown-it (needed only to show a new exercise variant), each
  // element's code and each engine module's glue in chunks loaded on demand, beside
  // scalebook.js (not in a folder: the code that finds the .wasm beside itself may land in a
  // shared chunk), so an embed still needs one script tag.
  const result = await esbuild.build({
    metafile: true,
    entryPoints: { scalebook: path.join(ROOT, 'web/runtime/index.js') },
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    target: ['es2020'],
    outdir: path.join(out, 'assets'),
    chunkNames: '[name]-[hash]',
    // engine.mjs reads the .wasm with node:fs only under Node; a browser never runs that branch.
    external: ['node:fs/promises'],
    plugins: [oneKatex, numberInterpolate, linkedSheets],
    logLevel: 'warning',
  });
  // A domain's worker (its long calculations off the page's thread) is its own bundle beside
  // scalebook.js, under its file's name: shared chunks would move engine.mjs, which finds the
  // .wasm beside itself.
  await esbuild.build({
    entryPoints: Object.fromEntries(workerFiles().map((file) => [path.basename(file, '.js'), file])),
    bundle: true,
    format: 'esm',
    minify: true,
    target: ['es2020'],
    outdir: path.join(out, 'assets'),
    external: ['node:fs/promises'],
    logLevel: 'warning',
  });
  const assets = path.join(out, 'assets');
  const entry = Object.values(result.metafile.outputs).find((o) => o.entryPoint?.endsWith('web/runtime/index.js'));
  const underAssets = (file) => path.relative(assets, path.resolve(file)).split(path.sep).join('/');
  const outputs = result.metafile.outputs;
  const elements = {};
  // A chunk and what it imports statically, transitively.
  const closure = (file, into = new Set()) => {
    if (into.has(file)) return into;
    into.add(file);
    for (const i of outputs[file].imports) if (i.kind === 'import-statement') closure(i.path, into);
    return into;
  };
  // Each element's chunk is the one whose entry is the file its declaration imports.
  const chunkOf = new Map(Object.entries(outputs).filter(([, o]) => o.entryPoint).map(([file, o]) => [path.resolve(o.entryPoint), file]));
  for (const [tag, source] of elementFiles()) {
    const file = chunkOf.get(source);
    if (!file) throw new Error(`no chunk for ${tag} (${path.relative(ROOT, source)})`);
    elements[tag] = [...closure(file)].map(underAssets);
  }
  const chunks = entry.imports.filter((i) => i.kind === 'import-statement').map((i) => underAssets(i.path));
  return { chunks, elements };
}

export async function buildSite({
  chaptersDir = path.join(ROOT, 'chapters'),
  exercisesDir = path.join(ROOT, 'exercises'),
  out = path.join(ROOT, 'dist'),
} = {}) {
  const engine = await loadEngine();
  useEngine(engine); // the static numbers are the engine's, as the live ones
  const toc = readToc(chaptersDir);
  const exercises = loadExercises(engine, exercisesDir);
  const ctx = { engine, exercises, placedExercises: new Set() };
  const mathRules = new Map(); // page slug -> its math classes' rules
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const { chunks, elements } = await bundleRuntime(out);
  // The chunks of the elements in a page's HTML, for its head to preload.
  const elementChunks = (html) => [...new Set([...html.matchAll(/<(sb-[a-z-]+)[\s>]/g)].flatMap(([, tag]) => elements[tag] ?? []))]
    .filter((chunk) => !chunks.includes(chunk));
  const pickEngine = await enginePicker({ wasmDir: WASM_DIR });
  const ready = new Set();
  const html = []; // every page as written, for the fonts' subsets
  const chapterHtml = new Map(); // and each chapter's by slug, for its own
  const placedIn = new Map(); // chapter slug -> its exercise ids in page order
  const written = toc.sections.filter((s) => s.file);
  for (const section of written) {
    const file = path.join(chaptersDir, section.file);
    const placedBefore = new Set(ctx.placedExercises);
    ctx.solutions = { page: `${section.slug}-solutions.html`, entries: [] };
    const chapter = renderChapter(ctx, fs.readFileSync(file, 'utf8'), file);
    const i = written.indexOf(section);
    // In the order the page shows them (a Set keeps insertion order), not the exercise file's.
    const placed = [...ctx.placedExercises].filter((id) => !placedBefore.has(id) && exercises.get(id)?.chapter === section.slug);
    placedIn.set(section.slug, placed);
    // The next section of the book, written or not: a chapter's end always says what follows.
    const next = toc.sections[toc.sections.indexOf(section) + 1];
    const shell = { toc, section, chapter, exercises: placed, prev: written[i - 1], next, nextWritten: Boolean(next?.file) };
    // The whole page's elements (the template adds the progress box) decide its module and chunks.
    const draft = chapterPage(shell);
    const { engine: name, grader, explainer } = pickEngine(draft, placed.map((id) => exercises.get(id).spec));
    const engineModule = { name, grader, explainer };
    const rules = new Map();
    const page = hoistPageStyles(chapterPage({ ...shell, chunks: [...chunks, ...elementChunks(draft)], engineModule }), rules);
    mathRules.set(section.slug, rules);
    const pageFile = path.join(out, `${section.slug}.html`);
    // Written first, so the line a failed check names can be looked at.
    fs.writeFileSync(pageFile, page);
    html.push(page);
    chapterHtml.set(section.slug, page);
    checkPage(page, pageFile, file);
    if (ctx.solutions.entries.length) {
      const solutionRules = new Map();
      const solutions = hoistPageStyles(solutionsPage({ toc, section, entries: ctx.solutions.entries }), solutionRules);
      mathRules.set(`${section.slug}-solutions`, solutionRules);
      const solutionsFile = path.join(out, ctx.solutions.page);
      fs.writeFileSync(solutionsFile, solutions);
      html.push(solutions);
      checkPage(solutions, solutionsFile, file);
    }
    ready.add(section.slug);
  }
  for (const exercise of exercises.values()) {
    const chapterReady = ready.has(exercise.chapter);
    if (chapterReady && !ctx.placedExercises.has(exercise.id)) {
      throw new BuildError(exercise.file, exercise.line,
        `exercise ${exercise.id} is not placed in ${exercise.chapter} (add ::exercise ${exercise.id})`);
    }
  }
  writeExerciseData(out, exercises, ctx.placedExercises); // fetched by sb-exercise when a reader needs it
  writeSearchIndex(out, written); // from the pages as built, for the search box
  // Then the closed sections a reader may never open leave each chapter page for its folds page
  // (lazy-folds.mjs); the search has read them, and the fonts' subsets read them in `html`.
  fs.mkdirSync(path.join(out, 'assets', 'folds'), { recursive: true });
  for (const section of written) {
    const pageFile = path.join(out, `${section.slug}.html`);
    const foldsFile = `assets/folds/${section.slug}.html`;
    const { html: lighter, folds } = takeFolds(fs.readFileSync(pageFile, 'utf8'), foldsFile);
    if (!folds.length) continue;
    fs.writeFileSync(path.join(out, foldsFile), foldsPage({ slug: section.slug, title: `${section.number}. ${section.title}`, folds }));
    const page = lighter.replace('</head>', `${foldsMeta(foldsFile)}\n</head>`);
    fs.writeFileSync(pageFile, page);
    checkPage(page, pageFile, path.join(chaptersDir, section.file));
  }
  const book = {};
  for (const section of toc.sections) {
    const ids = placedIn.get(section.slug) ?? [];
    if (ready.has(section.slug) && ids.length) book[section.slug] = { title: section.title, exercises: ids };
  }
  const pages = [
    ['index.html', indexPage({ toc, ready, book, chunks: [...chunks, ...elementChunks(indexPage({ toc, ready, book }))] }), path.join(chaptersDir, 'toc.json')],
    ['embed.html', embedPage(), fileURLToPath(new URL('./embed.mjs', import.meta.url))],
  ];
  for (const [name, page, source] of pages) {
    fs.writeFileSync(path.join(out, name), page);
    checkPage(page, path.join(out, name), source);
    html.push(page);
  }
  const exerciseTexts = fs.readdirSync(exercisesDir).filter((f) => f.endsWith('.json'))
    .map((f) => fs.readFileSync(path.join(exercisesDir, f), 'utf8'));
  await copyAssets(out, mathRules, { pages: html, exerciseTexts, chapters: chapterHtml });
  await precompress(out, { cacheDir: path.join(ROOT, 'node_modules/.cache/scalebook-precompressed') });
  return { out, pages: [...ready], exercises: exercises.size };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outFlag = process.argv.indexOf('--out');
  const out = outFlag > 0 ? path.resolve(process.argv[outFlag + 1]) : undefined;
  try {
    const result = await buildSite({ out });
    console.log(`built ${result.pages.length} chapter(s) and ${result.exercises} exercise(s) into ${path.relative(process.cwd(), result.out) || '.'}`);
  } catch (error) {
    console.error(error instanceof BuildError ? `build failed: ${error.message}` : error);
    process.exit(1);
  }
}
