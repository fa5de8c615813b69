// Block directives: a paragraph of one line starting with `::`. Each becomes an HTML
// comment placeholder before markdown-it runs, and its HTML after. One name everywhere: a
// directive ::X emits <sb-X> for the calculator or simulation X (::plot KIND emits the plot's
// element), and each setting becomes the attribute attributeName(setting). This file holds the
// dispatcher, ::calculator and ::plot; each domain declares its directives in
// directives/<domain>.mjs (`handlers`, and any `plots`, `calculatorExtras`, `calculatorLead`),
// listed here one line each, in the order an unknown directive's message names them.
import { BuildError } from './errors.mjs';
import { parseArgs } from './args.mjs';
import { calculatorElementHTML } from './directives/calculator-element.mjs';
import * as exercises from './directives/exercises.mjs';
import * as systolic from './directives/systolic.mjs';
import * as hardware from './directives/hardware.mjs';
import * as sharding from './directives/sharding.mjs';
import * as roofline from './directives/roofline.mjs';
import * as collectives from './directives/collectives.mjs';
import * as transformer from './directives/transformer.mjs';
import * as training from './directives/training.mjs';
import * as inference from './directives/inference.mjs';
import * as gpus from './directives/gpus.mjs';
import * as publishedRuns from './directives/published-runs.mjs';

const DOMAINS = { exercises, systolic, hardware, sharding, roofline, collectives, transformer, training, inference, gpus, publishedRuns };

const DIRECTIVE = /^::([\w-]*)\s*(.*)$/;
// A directive after indentation, a list marker or a quote marker: markdown-it would show it as text.
const MISPLACED = /^(?:\s|>|[-*+](?=\s)|\d+[.)](?=\s))+::([\w-]+)/;

// One map of every domain's `key` (handlers, plots, ...); a name two domains declare is a
// mistake to hear about at once.
function gather(key, into = {}) {
  for (const [domain, declared] of Object.entries(DOMAINS)) {
    for (const [name, value] of Object.entries(declared[key] ?? {})) {
      if (Object.hasOwn(into, name)) throw new Error(`directives/${domain}.mjs: ${key} "${name}" is declared twice`);
      into[name] = value;
    }
  }
  return into;
}

const PLOTS = gather('plots');
const CALCULATOR_EXTRAS = gather('calculatorExtras');
const CALCULATOR_LEAD = gather('calculatorLead');

function calculatorDirective(ctx, args, fail) {
  const [name, ...rest] = args.positional;
  if (!name || rest.length) fail('expected ::calculator NAME key=value ...');
  // A calculator with a directive of its own name (::transformer, ::slice, ::sharded-matmul) has
  // its own element <sb-NAME>, not the generic form.
  if (Object.hasOwn(HANDLERS, name)) fail(`the ${name} calculator has its own element: use ::${name} key=value ...`);
  // An element that draws more after the form (the training explorer) gets it at build time too.
  const extras = Object.hasOwn(CALCULATOR_EXTRAS, name) ? CALCULATOR_EXTRAS[name] : undefined;
  const lead = Object.hasOwn(CALCULATOR_LEAD, name) ? CALCULATOR_LEAD[name] : null;
  return calculatorElementHTML(ctx, name, args.named, fail, extras, { lead });
}

function plotDirective(ctx, args, fail) {
  const [kind, ...rest] = args.positional;
  const render = Object.hasOwn(PLOTS, kind ?? '') ? PLOTS[kind] : null;
  if (!render || rest.length) fail(`expected ::plot KIND with KIND one of ${Object.keys(PLOTS).join(', ')}`);
  return render(ctx, args, fail);
}

// Every directive by name: ::calculator, ::plot and each domain's.
export const HANDLERS = gather('handlers', { calculator: calculatorDirective, plot: plotDirective });

// Returns { markdown, blocks }: markdown with placeholders, blocks[i] the HTML of the i-th.
export function extractDirectives(ctx, markdown, file) {
  const lines = markdown.split('\n');
  const blocks = [];
  let inFence = false;
  const out = lines.map((text, i) => {
    if (/^\s*(```|~~~)/.test(text)) inFence = !inFence;
    if (inFence) return text;
    const misplaced = MISPLACED.exec(text);
    if (misplaced) {
      throw new BuildError(file, i + 1, `::${misplaced[1]}: a directive must start at column 0, ` +
        'not indented or inside a list item or quote');
    }
    const match = DIRECTIVE.exec(text);
    if (!match) return text;
    const fail = (message) => {
      throw new BuildError(file, i + 1, `::${match[1]}: ${message}`);
    };
    const alone = (lines[i - 1] ?? '').trim() === '' && (lines[i + 1] ?? '').trim() === '';
    if (!alone) fail('a directive must be a paragraph of its own (blank lines around it)');
    const handler = Object.hasOwn(HANDLERS, match[1]) ? HANDLERS[match[1]] : null;
    if (!handler) {
      throw new BuildError(file, i + 1, `unknown directive "::${match[1]}"; use ${Object.keys(HANDLERS).map((h) => `::${h}`).join(', ')}`);
    }
    const args = parseArgs(match[2]);
    if (args.duplicates.length) fail(`${args.duplicates[0]} is given twice`);
    if (args.unclosed) fail('a quoted value has no closing "');
    blocks.push(handler(ctx, args, fail));
    return `<!--sb-directive:${blocks.length - 1}-->`;
  });
  return { markdown: out.join('\n'), blocks };
}

export function insertBlocks(html, blocks) {
  return html.replace(/<!--sb-directive:(\d+)-->\n?/g, (_, i) => blocks[Number(i)]);
}
