// Builds the site into dist/: chapters, index, embed demo, runtime bundle, KaTeX assets.
// Usage: node web/builder/build.mjs [--out DIR]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { loadEngine } from '../../bindings/wasm/engine.mjs';
import { useEngine } from '../runtime/core/format.js';
import { BuildError, readJson } from './errors.mjs';
import { checkPage } from './page-check.mjs';
import { loadExercises } from './exercises.mjs';
import { renderChapter } from './markdown.mjs';
import { chapterPage, indexPage } from './templates.mjs';
import { embedPage } from './embed.mjs';
import { precompress } from './compress.mjs';
import { SHEETS } from '../runtime/core/sheets.js';
import { hoistPageStyles } from './page-styles.mjs';
import { writeSearchIndex } from './search-index.mjs';
import { writeKatexAssets } from './fonts.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

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

// mathRules: the rules of the classes that stand for KaTeX's style attributes (page-styles.mjs);
// math: the built pages' HTML and the exercise files' texts, whose formulas the fonts must draw.
async function copyAssets(out, mathRules, math) {
  const assets = path.join(out, 'assets');
  fs.mkdirSync(path.join(assets, 'css'), { recursive: true });
  for (const [name, css] of Object.entries(SHEETS)) fs.writeFileSync(path.join(assets, 'css', `${name}.css`), css.trim() + '\n');
  fs.writeFileSync(path.join(assets, 'css', 'math.css'), [...mathRules.values()].sort().join('\n') + '\n');
  await writeKatexAssets(path.join(ROOT, 'node_modules/katex/dist'), path.join(assets, 'katex'), math,
    { cacheDir: path.join(ROOT, 'node_modules/.cache/scalebook-fonts') });
  // The engine's .wasm beside the bundle, where engine.mjs's loader looks for it.
  fs.copyFileSync(path.join(ROOT, 'bindings/wasm/generated/scalebook-engine.wasm'), path.join(assets, 'scalebook-engine.wasm'));
  // <sb-model-config>'s examples: the presets' config.json files the engine's tests read.
  fs.cpSync(path.join(ROOT, 'tests/fixtures/model-configs'), path.join(assets, 'model-configs'), { recursive: true });
  for (const name of ['site.css', 'favicon.svg', 'file-notice.js']) {
    fs.copyFileSync(path.join(ROOT, 'web/static', name), path.join(assets, name));
  }
}

// Returns the chunks (paths under assets/) that scalebook.js imports statically.
async function bundleRuntime(out) {
  // Splitting keeps KaTeX and markdown-it (needed only to show a new exercise variant) in
  // chunks loaded on demand, next to scalebook.js, so an embed still needs one script tag.
  const result = await esbuild.build({
    metafile: true,
    entryPoints: { scalebook: path.join(ROOT, 'web/runtime/index.js') },
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    target: ['es2020'],
    outdir: path.join(out, 'assets'),
    chunkNames: 'chunks/[name]-[hash]',
    // engine.mjs reads the .wasm with node:fs only under Node; a browser never runs that branch.
    external: ['node:fs/promises'],
    logLevel: 'warning',
  });
  // The search worker (the configuration search off the page's thread) is its own bundle beside
  // scalebook.js: shared chunks would move engine.mjs, which finds the .wasm beside itself.
  await esbuild.build({
    entryPoints: { 'search-worker': path.join(ROOT, 'web/runtime/training/search-worker.js') },
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
  return entry.imports.filter((i) => i.kind === 'import-statement')
    .map((i) => path.relative(assets, path.resolve(i.path)).split(path.sep).join('/'));
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
  const mathRules = new Map();
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const chunks = await bundleRuntime(out);
  const ready = new Set();
  const html = []; // every page as written, for the fonts' subsets
  const placedIn = new Map(); // chapter slug -> its exercise ids in page order
  const written = toc.sections.filter((s) => s.file);
  for (const section of written) {
    const file = path.join(chaptersDir, section.file);
    const placedBefore = new Set(ctx.placedExercises);
    const chapter = renderChapter(ctx, fs.readFileSync(file, 'utf8'), file);
    const i = written.indexOf(section);
    // In the order the page shows them (a Set keeps insertion order), not the exercise file's.
    const placed = [...ctx.placedExercises].filter((id) => !placedBefore.has(id) && exercises.get(id)?.chapter === section.slug);
    placedIn.set(section.slug, placed);
    // The next section of the book, written or not: a chapter's end always says what follows.
    const next = toc.sections[toc.sections.indexOf(section) + 1];
    const page = hoistPageStyles(chapterPage({ toc, section, chapter, exercises: placed, prev: written[i - 1], next, nextWritten: Boolean(next?.file), chunks }), mathRules);
    const pageFile = path.join(out, `${section.slug}.html`);
    // Written first, so the line a failed check names can be looked at.
    fs.writeFileSync(pageFile, page);
    html.push(page);
    checkPage(page, pageFile, file);
    ready.add(section.slug);
  }
  for (const exercise of exercises.values()) {
    const chapterReady = ready.has(exercise.chapter);
    if (chapterReady && !ctx.placedExercises.has(exercise.id)) {
      throw new BuildError(exercise.file, exercise.line,
        `exercise ${exercise.id} is not placed in ${exercise.chapter} (add ::exercise ${exercise.id})`);
    }
  }
  writeSearchIndex(out, written); // from the pages as built, for the search box
  const book = {};
  for (const section of toc.sections) {
    const ids = placedIn.get(section.slug) ?? [];
    if (ready.has(section.slug) && ids.length) book[section.slug] = { title: section.title, exercises: ids };
  }
  const pages = [
    ['index.html', indexPage({ toc, ready, book, chunks }), path.join(chaptersDir, 'toc.json')],
    ['embed.html', embedPage(), fileURLToPath(new URL('./embed.mjs', import.meta.url))],
  ];
  for (const [name, page, source] of pages) {
    fs.writeFileSync(path.join(out, name), page);
    checkPage(page, path.join(out, name), source);
    html.push(page);
  }
  const exerciseTexts = fs.readdirSync(exercisesDir).filter((f) => f.endsWith('.json'))
    .map((f) => fs.readFileSync(path.join(exercisesDir, f), 'utf8'));
  await copyAssets(out, mathRules, { pages: html, exerciseTexts });
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
