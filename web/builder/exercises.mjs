// Exercise files (exercises/*.json): validated against the engine at build time, and
// rendered with the prompt and the worked solution typeset by KaTeX.
import fs from 'node:fs';
import path from 'node:path';
import katex from 'katex';
import { BuildError, escapeHtml, lineOf } from './errors.mjs';
import { exerciseShellHTML } from '../runtime/render.js';
import { isAnswerUnit, toAnswerUnit } from '../runtime/format.js';

const UNIT_BASE = { ms: 's', us: 's', 'µs': 's', ns: 's' };

function baseUnit(answerUnit) {
  return UNIT_BASE[answerUnit] ?? answerUnit;
}

function validatePart(engine, exercise, part, fail) {
  for (const key of ['calculator', 'output', 'answer_unit']) {
    if (typeof part[key] !== 'string') fail(`part needs "${key}"`);
  }
  let schema;
  try {
    schema = engine.schema(part.calculator);
  } catch (error) {
    fail(error.message);
  }
  const spec = schema.outputs.find((o) => o.name === part.output);
  if (!spec || spec.type !== 'number') fail(`${part.calculator} has no numeric output "${part.output}"`);
  if (!isAnswerUnit(part.answer_unit)) fail(`unknown answer_unit "${part.answer_unit}"`);
  if (baseUnit(part.answer_unit) !== spec.unit) {
    fail(`answer_unit "${part.answer_unit}" does not measure ${part.output} (${spec.unit})`);
  }
  const rel = part.tolerance?.rel;
  if (!(rel > 0 && rel < 1)) fail('part needs tolerance.rel between 0 and 1');
  let result;
  try {
    result = engine.calculate(part.calculator, part.inputs ?? {});
  } catch (error) {
    fail(`inputs: ${error.message}`);
  }
  if (!result.steps.some((s) => s.output === part.output)) {
    fail(`${part.calculator} has no worked steps for ${part.output}, so it cannot have a solution`);
  }
  const expected = toAnswerUnit(result[part.output], part.answer_unit);
  const book = part.book;
  if (!book || typeof book.value !== 'number') fail('part needs the book\'s number: book.value');
  if (book.unit !== part.answer_unit) fail(`book.unit must be the answer_unit "${part.answer_unit}"`);
  const off = Math.abs(expected - book.value) / Math.abs(book.value);
  if (off > book.tolerance_rel && !book.erratum) {
    fail(`the engine gives ${expected} ${part.answer_unit} but the book ${book.value} ` +
      `(${(off * 100).toFixed(2)}% apart, tolerance ${book.tolerance_rel * 100}%); ` +
      'fix the inputs or explain the difference in book.erratum');
  }
  return { result, expected };
}

// Reads every exercise file; returns Map id -> exercise (with file, line, computed parts).
export function loadExercises(engine, dir) {
  const exercises = new Map();
  for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const file = path.join(dir, name);
    const text = fs.readFileSync(file, 'utf8');
    let data;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new BuildError(file, 1, `not valid JSON: ${error.message}`);
    }
    for (const exercise of data.exercises ?? []) {
      const line = lineOf(text, `"id": "${exercise.id}"`);
      const fail = (message) => {
        throw new BuildError(file, line, `exercise ${exercise.id}: ${message}`);
      };
      if (!/^[\w-]+$/.test(exercise.id ?? '')) fail('needs an id of letters, digits, - or _');
      if (exercises.has(exercise.id)) fail('id is used twice');
      for (const key of ['title', 'prompt', 'section', 'book_ref']) {
        if (typeof exercise[key] !== 'string') fail(`needs "${key}"`);
      }
      if (!Array.isArray(exercise.parts) || exercise.parts.length !== 1) {
        fail('needs exactly one part for now');
      }
      const computed = exercise.parts.map((part) => validatePart(engine, exercise, part, fail));
      exercises.set(exercise.id, { ...exercise, file, line, computed, chapter: data.chapter });
    }
  }
  return exercises;
}

function tex(latex, file, line) {
  try {
    return katex.renderToString(latex, { throwOnError: true });
  } catch (error) {
    throw new BuildError(file, line, `worked solution: ${error.message}`);
  }
}

// The steps that lead to `output`: its own and, first, those of the outputs it depends on.
export function stepsFor(steps, output) {
  const wanted = new Set();
  const visit = (name) => {
    if (wanted.has(name)) return;
    wanted.add(name);
    for (const dep of steps.find((s) => s.output === name)?.depends ?? []) visit(dep);
  };
  visit(output);
  return steps.filter((s) => wanted.has(s.output));
}

function solutionHTML(exercise) {
  const part = exercise.parts[0];
  const { result, expected } = exercise.computed[0];
  const steps = stepsFor(result.steps, part.output)
    .map((s) => `<li><span class="step-label">${escapeHtml(s.label)}</span> ${tex(s.latex, exercise.file, exercise.line)}</li>`)
    .join('');
  const answer = `${Number(expected.toPrecision(4))} ${part.answer_unit}`;
  const book = `${part.book.value} ${part.book.unit}`;
  return `<ol class="steps">${steps}</ol>` +
    `<p class="answer">Answer: <strong>${escapeHtml(answer)}</strong> (the book gives ${escapeHtml(book)}` +
    `${part.book.erratum ? `; ${escapeHtml(part.book.erratum)}` : ''}).</p>`;
}

// renderInline(markdown, file, line) renders a Markdown fragment with values and math.
// The markup contract of <sb-exercise> is documented in web/runtime/sb-exercise.js.
export function exerciseHTML(engine, exercise, renderInline) {
  const part = exercise.parts[0];
  const shell = exerciseShellHTML({
    id: exercise.id,
    title: exercise.title,
    promptHTML: renderInline(exercise.prompt, exercise.file, exercise.line),
    solutionHTML: solutionHTML(exercise),
    answerUnit: part.answer_unit,
  });
  const attributes = [
    ['id', exercise.id],
    ['calculator', part.calculator],
    ['output', part.output],
    ['inputs', JSON.stringify(part.inputs ?? {})],
    ['answer-unit', part.answer_unit],
    ['rel-tol', String(part.tolerance.rel)],
    ['data-book-ref', exercise.book_ref],
  ].map(([k, v]) => ` ${k}="${escapeHtml(v)}"`).join('');
  return `<sb-exercise${attributes}>${shell}</sb-exercise>`;
}
