// Exercise files (exercises/*.json): checked by the engine at build time (book numbers,
// variants), rendered with the prompt and worked solutions typeset by KaTeX. The format is
// documented in exercises/README.md; the engine does all the computing.
import fs from 'node:fs';
import path from 'node:path';
import { renderTexHTML } from '../runtime/core/tex-speech.js';
import { BuildError, escapeHtml, readJson } from './errors.mjs';
import { fieldLine } from './exercise-fields.mjs';
import { nodeAt } from './json-lines.mjs';
import { exerciseShellHTML, partSolutionHTML } from '../runtime/exercises/exercise-html.js';

const CHECKED_SEEDS = 20;

// The node of each exercise by id, from the file's line map.
function exerciseNodes(root) {
  const nodes = new Map();
  for (const node of root.members?.get('exercises')?.items ?? []) {
    if (typeof node.value?.id === 'string') nodes.set(node.value.id, node);
  }
  return nodes;
}

// Reads every exercise file; returns Map id -> { id, chapter, file, line, spec, node }, node
// being the exercise in the file's line map.
export function loadExercises(engine, dir) {
  const exercises = new Map();
  for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const file = path.join(dir, name);
    const text = fs.readFileSync(file, 'utf8');
    const root = readJson(file, text);
    const nodes = exerciseNodes(root);
    // An error names its exercise ("exercise ID: ...") and the field; point at that field.
    const fail = (id, field, message) => {
      const node = nodes.get(id);
      const top = root.members?.get(field);
      throw new BuildError(file, node ? fieldLine(node, field, message) : top?.line ?? 1, message);
    };
    let report;
    try {
      report = engine.exerciseCheck(text, CHECKED_SEEDS);
    } catch (error) {
      fail(/^exercise (\S+):/.exec(error.message)?.[1], error.field, error.message);
    }
    for (const problem of report.problems) {
      fail(problem.exercise, problem.field, `exercise ${problem.exercise}: ${problem.message}`);
    }
    for (const node of root.members.get('exercises').items) {
      const spec = node.value;
      const line = node.members.get('id').line;
      if (exercises.has(spec.id)) throw new BuildError(file, line, `exercise ${spec.id}: id is used twice`);
      exercises.set(spec.id, { id: spec.id, chapter: root.value.chapter, file, line, spec, node });
    }
  }
  return exercises;
}

function tex(exercise) {
  return (latex) => {
    try {
      return renderTexHTML(latex, { throwOnError: true });
    } catch (error) {
      throw new BuildError(exercise.file, exercise.line, `exercise ${exercise.id}: worked solution: ${error.message}`);
    }
  };
}

// The file text the engine reads one exercise from at build time, as the element does.
const exerciseFile = (exercise) => JSON.stringify({ chapter: exercise.chapter, exercises: [exercise.spec] });

// The browser typesets the other variants' prompts; rendering those of the seeds the engine
// checks fails the build on a slip that only a drawn value brings out.
function checkVariantPrompts(engine, file, exercise, render) {
  for (let seed = 1; seed <= CHECKED_SEEDS; seed += 1) {
    try {
      render(engine.exerciseVariant(file, exercise.id, seed).prompt, 'prompt');
    } catch (error) {
      if (!(error instanceof BuildError)) throw error;
      throw new BuildError(error.file, error.line, `exercise ${exercise.id}: variant ${seed}: ${error.reason}`);
    }
  }
}

// renderInline(markdown, file, line) renders a Markdown fragment with math. With `solutions`
// ({ page, entries }), the worked solutions go to the chapter's solutions page (`page`; its
// entries collect them) and the chapter links to them: they were a fifth of a chapter's
// bytes, for the few readers who open one (sb-exercise fetches it then).
export function exerciseHTML(engine, exercise, renderInline, solutions = null) {
  const file = exerciseFile(exercise);
  const variant = engine.exerciseVariant(file, exercise.id, 0);
  // A slip in a prompt, hint or label fails the build at that field's line.
  const render = (markdown, ...path) => renderInline(markdown, exercise.file, nodeAt(exercise.node, path).node.line);
  const parts = variant.parts.map((part, i) => ({
    id: part.id,
    kind: part.kind,
    label: part.label,
    labelHTML: part.label ? render(part.label, 'parts', i, 'label') : undefined,
    unit: part.unit,
    choices: part.choices,
    solutionHTML: partSolutionHTML({ ...part, book: exercise.spec.parts[i].book }, tex(exercise)),
  }));
  if (solutions) solutions.entries.push({ id: exercise.id, title: variant.title, parts: parts.map((part) => ({ ...part })) });
  const shell = exerciseShellHTML({
    id: exercise.id,
    title: variant.title,
    promptHTML: render(variant.prompt, 'prompt'),
    hintsHTML: (exercise.spec.hints ?? []).map((hint, i) => render(hint, 'hints', i)),
    parts: solutions ? parts.map((part) => ({ ...part, solutionHTML: undefined, solutionPage: solutions.page })) : parts,
  });
  checkVariantPrompts(engine, file, exercise, render);
  return `<sb-exercise id="${escapeHtml(exercise.id)}" chapter="${escapeHtml(exercise.chapter)}" ` +
    `data-src="${escapeHtml(exerciseDataPath(exercise.chapter))}">${shell}</sb-exercise>`;
}

// The page names its exercises' data rather than carrying it: only a reader who checks an
// answer or draws a variant needs it (4 to 7 kB brotli of a chapter's HTML), and sb-exercise
// fetches it then, with the grader.
export const exerciseDataPath = (chapter) => `assets/exercises/${chapter}.json`;

// Writes, under `out`, one exercise file per chapter holding its placed exercises, in the order
// the pages place them.
export function writeExerciseData(out, exercises, placed) {
  const byChapter = new Map();
  for (const id of placed) {
    const { chapter, spec } = exercises.get(id);
    if (!byChapter.has(chapter)) byChapter.set(chapter, []);
    byChapter.get(chapter).push(spec);
  }
  for (const [chapter, specs] of byChapter) {
    const file = path.join(out, exerciseDataPath(chapter));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ chapter, exercises: specs }));
  }
}
