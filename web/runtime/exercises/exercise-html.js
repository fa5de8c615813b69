// HTML strings for <sb-exercise>, shared by the site builder (seed 0, typeset at build time)
// and the browser (other seeds), so a variant looks exactly like the book's problem.
// The element's contract is documented at the top of sb-exercise.js. No DOM, no engine here.
import { escapeHTML } from '../core/escape.js';

// 4 significant digits, as the worked solution's answer: 240.2, 1.011, 8755, 1.5e12. Not one
// of the engine's format styles (they give 3 digits), so it is written here.
export function answerNumber(x) {
  if (typeof x !== 'number') return String(x ?? '');
  if (!Number.isFinite(x)) return String(x);
  if (x !== 0 && (Math.abs(x) >= 1e6 || Math.abs(x) < 1e-3)) {
    const [mantissa, exponent] = x.toExponential(3).split('e');
    return `${Number(mantissa)}e${Number(exponent)}`;
  }
  return String(Number(x.toPrecision(4)));
}

// Exercise files write microseconds "us" (plain ASCII, and what a reader may type); a reader
// sees the µs every other number on the site uses.
export const shownUnit = (unit) => String(unit ?? '').replace(/\bus\b/g, '\u00b5s');

const withUnit = (text, unit) => (unit ? `${text} ${shownUnit(unit)}` : text);

// The worked solution of one part: the engine's steps, then the answer (and the book's).
// renderTex(latex) -> HTML: KaTeX's renderToString at build time or in the browser.
export function partSolutionHTML({ steps = [], expected, unit = '', kind = 'number', book = null }, renderTex) {
  const items = steps.map((step) => `<li><span class="step-label">${escapeHTML(step.label)}</span> ` +
    `${renderTex(step.latex)}</li>`).join('');
  const shown = kind === 'choice' ? String(expected) : withUnit(answerNumber(expected), unit);
  let bookText = '';
  if (book && book.value !== undefined && book.value !== null) {
    const value = kind === 'choice' ? String(book.value) : withUnit(answerNumber(book.value), unit);
    bookText = ` (the book gives ${escapeHTML(value)}${book.erratum ? `; ${escapeHTML(book.erratum)}` : ''})`;
  }
  return (items ? `<ol class="steps">${items}</ol>` : '') +
    `<p class="answer">Answer: <strong>${escapeHTML(shown)}</strong>${bookText}.</p>`;
}

// The JSON island the element reads: the one exercise, as a file the engine accepts.
// "<" is escaped so no string inside can close the <script> early.
export function exerciseDataHTML(chapter, exercise) {
  const json = JSON.stringify({ chapter, exercises: [exercise] }).replace(/</g, '\\u003c');
  return `<script type="application/json" data-exercise>${json}</script>`;
}

// "(b) prefill (T = S)": the letter, then the label; part.labelHTML is the label typeset
// (the builder and the browser render its Markdown and math), else the label is plain text.
export function partLabelHTML(part, index, count) {
  const letter = count > 1 ? `(${escapeHTML(part.id || String.fromCharCode(97 + index))}) ` : '';
  const label = part.labelHTML ?? escapeHTML(part.label || '');
  return `${letter}${label || (count > 1 ? '' : 'Your answer')}`.trim();
}

const unitHTML = (unit) => (unit ? ` <span class="unit">(${escapeHTML(shownUnit(unit))})</span>` : '');

function numberAnswerHTML(base, part, labelHTML) {
  return `<div class="sb-exercise-answer">` +
    `<label for="${base}-answer">${labelHTML}${unitHTML(part.unit)}</label>` +
    `<input id="${base}-answer" data-answer type="text" autocomplete="off" ` +
    `spellcheck="false" aria-describedby="${base}-feedback">` +
    `<button type="button" data-check>Check</button>` +
    `<p id="${base}-feedback" data-feedback role="status" aria-live="polite"></p></div>`;
}

function choiceAnswerHTML(base, part, labelHTML) {
  const options = (part.choices ?? []).map((choice, i) =>
    `<label class="sb-exercise-choice"><input type="radio" name="${base}-choice" id="${base}-choice-${i}" ` +
    `value="${escapeHTML(choice)}" data-answer>${escapeHTML(choice)}</label>`).join('');
  return `<fieldset class="sb-exercise-answer" aria-describedby="${base}-feedback">` +
    `<legend>${labelHTML || 'Your answer'}</legend>` +
    `<span class="sb-exercise-choices">${options}</span>` +
    `<button type="button" data-check>Check</button>` +
    `<p id="${base}-feedback" data-feedback role="status" aria-live="polite"></p></fieldset>`;
}

// One part: answer box (or radios), Check, feedback, and the worked solution in a <details>,
// so it opens without JavaScript too (as a link, when the solution is on the solutions page).
// The prefix of a part's ids (escaped): "EXERCISE-a". The solutions page uses it too.
export const partBase = (id, part, index) => `${escapeHTML(id)}-${escapeHTML(part.id || String.fromCharCode(97 + index))}`;

function partHTML(id, part, index, count) {
  const partId = part.id || String.fromCharCode(97 + index);
  const base = partBase(id, part, index);
  const labelHTML = partLabelHTML(part, index, count);
  const answer = part.kind === 'choice' ? choiceAnswerHTML(base, part, labelHTML) : numberAnswerHTML(base, part, labelHTML);
  const src = part.solutionPage ? ` data-src="${escapeHTML(part.solutionPage)}#${base}-solution"` : '';
  const solution = part.solutionPage ? solutionLinkHTML(part.solutionPage, base) : part.solutionHTML ?? '';
  return `<div class="sb-exercise-part" data-part="${escapeHTML(partId)}" data-kind="${escapeHTML(part.kind || 'number')}">` +
    `${answer}<details class="sb-exercise-solution"><summary data-show-solution>Show worked solution</summary>` +
    `<div id="${base}-solution" data-solution${src}>${solution}</div></details></div>`;
}

// A worked solution kept on the chapter's solutions page (part.solutionPage, as the builder
// writes it): a link to it, which sb-exercise replaces with the solution itself on opening.
function solutionLinkHTML(page, base) {
  const href = `${escapeHTML(page)}#${base}-solution`;
  return `<p class="sb-exercise-solution-link" data-solution-link><a href="${href}">Read the worked solution</a> ` +
    `on this chapter's page of solutions.</p>`;
}

function hintsHTMLBlock(hintsHTML) {
  if (!hintsHTML.length) return '';
  const body = hintsHTML.length === 1 ? `<div class="sb-exercise-hint">${hintsHTML[0]}</div>`
    : `<ol class="sb-exercise-hint">${hintsHTML.map((h) => `<li>${h}</li>`).join('')}</ol>`;
  return `<details class="sb-exercise-hints" data-hints><summary>Hint</summary>${body}</details>`;
}

// Light-DOM content of <sb-exercise>. `id` must be unique on the page: it prefixes every
// inner id. promptHTML, hintsHTML[i], parts[i].solutionHTML and parts[i].labelHTML (optional)
// are already-rendered HTML; parts[i].solutionPage, when given, stands for solutionHTML.
// The variant bar and the notice stay hidden until the script runs: without it there are no
// variants to offer.
export function exerciseShellHTML({ id, title = '', promptHTML = '', hintsHTML = [], parts = [] }) {
  const base = escapeHTML(id);
  const heading = `<div class="sb-exercise-head">` +
    (title ? `<h3 class="sb-exercise-title" id="${base}-title">${escapeHTML(title)}</h3>` : '') +
    `<span class="sb-exercise-badge" data-badge hidden>Solved</span></div>`;
  const variantBar = `<div class="sb-exercise-variant" data-variant-bar hidden>` +
    `<span data-variant-name>Book's problem</span>` +
    `<a data-variant-link href="#ex-${base}=0">link</a>` +
    `<button type="button" data-new-variant>New variant</button>` +
    `<button type="button" data-book-variant hidden>Book's problem</button></div>`;
  const notice = `<p class="sb-exercise-notice" data-notice role="status" hidden></p>`;
  const body = parts.map((part, i) => partHTML(id, part, i, parts.length)).join('');
  return `${heading}${variantBar}${notice}` +
    `<div class="sb-exercise-prompt" data-prompt>${promptHTML}</div>` +
    `${hintsHTMLBlock(hintsHTML)}<div class="sb-exercise-parts">${body}</div>`;
}
