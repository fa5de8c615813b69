// Pure renderers of <sb-sharded-matmul>, the sharded-matmul planner: a spec in the book's
// notation (A[I_X, J] * B[J, K_Y] -> C[I_X, K_Y]), a mesh and the dimension sizes go to the
// engine's sharded-matmul calculator, which finds the case, the collectives to insert and their
// costs. This file lays its answer out: the case, the plan, a timeline of compute against
// communication (one after the other, and overlapped), the tables and the worked solution.
// No DOM, no engine state.
import { escapeHTML } from '../core/escape.js';
import { unitHTML } from '../core/render.js';
import { unitAfter } from '../core/input-groups.js';
import { formatValue } from '../core/format.js';
import { asError, effectiveValue, dimensionNames, dimensionInput, fieldHTML, notationHTML, outputsListHTML, stepsHTML, valueText } from '../core/widget-form.js';

export const CALCULATOR = 'sharded-matmul';
// The outputs listed under the plan, in this order (those the schema has).
export const PLAN_OUTPUTS = ['output_sharding', 'local_a', 'local_b', 'local_c', 'memory_per_device', 'flops_per_device',
  't_compute', 't_comm', 't_serial', 't_total', 'overlap', 'devices', 'partition_spec_a', 'partition_spec_b', 'partition_spec_c'];
// The list outputs' columns as the contract names them, for a schema that does not list them.
const TABLES = {
  collectives: [{ name: 'op', type: 'text' }, { name: 'axes', type: 'text' }, { name: 'array', type: 'text' },
    { name: 'bytes', unit: 'B' }, { name: 'time', unit: 's' }],
  alternatives: [{ name: 'plan', type: 'text' }, { name: 'collectives', type: 'text' }, { name: 't_comm', unit: 's' }, { name: 't_total', unit: 's' }],
};
export const OP_NAMES = { 'all-gather': 'AllGather', 'reduce-scatter': 'ReduceScatter', 'all-reduce': 'AllReduce', 'all-to-all': 'AllToAll' };

export function plannerDims(schema, values) {
  return dimensionNames(effectiveValue(schema, values, 'spec'));
}

// The calculator's request: spec and mesh always (typed or default), every other filled field,
// and the size of each dimension named in the spec.
export function plannerRequest(schema, values) {
  const request = { spec: effectiveValue(schema, values, 'spec'), mesh: effectiveValue(schema, values, 'mesh') };
  const names = [...schema.inputs.map((i) => i.name).filter((n) => n !== 'spec' && n !== 'mesh'), ...plannerDims(schema, values)];
  for (const name of names) {
    const text = String(values?.[name] ?? '').trim();
    if (text !== '') request[name] = text;
  }
  return request;
}

// { result, error }: the engine's plan, or its CalculatorError as { field, message, position };
// with the worked steps when the engine module explains.
export function runPlanner(engine, schema, values) {
  try {
    return { result: engine.calculate(CALCULATOR, plannerRequest(schema, values), { steps: engine.explains !== false }), error: null };
  } catch (err) {
    return { result: null, error: asError(err) };
  }
}

export function opName(op) {
  return OP_NAMES[op] ?? String(op ?? '');
}

// A list output's columns: the schema's, or the contract's names when it lists none.
export function tableColumns(schema, name) {
  return schema?.tables?.find((t) => t.name === name)?.columns ?? TABLES[name];
}

function cellHTML(column, value) {
  if (column.name === 'op') return escapeHTML(opName(value));
  if (column.name === 'plan' || column.name === 'array' || column.type === 'text') {
    return notationHTML(Array.isArray(value) ? value.join('') : valueText(value));
  }
  return escapeHTML(valueText(value, column.unit));
}

export function tableHTML(columns, rows, name, empty) {
  if (!rows?.length) return `<p class="table-empty" data-table="${name}">${escapeHTML(empty)}</p>`;
  const head = columns.map((c) => `<th scope="col" role="columnheader" title="${escapeHTML(c.name)}">${escapeHTML(c.label || c.name)}` +
    `${unitHTML(c.label || c.name, c.unit)}</th>`);
  // data-label: in a narrow column each row becomes a card whose cells name their column
  // (styles.js); the explicit roles keep it a table for screen readers once it is not
  // displayed as one.
  const label = (c) => `${c.label || c.name}${unitAfter(c.label || c.name, c.unit) ? ` (${c.unit})` : ''}`;
  const body = rows.map((row) => `<tr role="row">${columns.map((c) => `<td role="cell" data-column="${escapeHTML(c.name)}" ` +
    `data-label="${escapeHTML(label(c))}">${cellHTML(c, row[c.name])}</td>`).join('')}</tr>`);
  return `<div class="table-wrap"><table class="plan-table" role="table" data-table="${name}"><thead><tr role="row">${head.join('')}</tr></thead>` +
    `<tbody>${body.join('')}</tbody></table></div>`;
}

// The plan's steps (the engine separates them with "; ").
export function planSteps(plan) {
  return String(plan ?? '').split(';').map((s) => s.trim()).filter(Boolean);
}

// Bars of the timeline, in seconds: one lane with compute then each collective, one lane with
// compute and the collectives side by side (overlapped). Every length is an engine number.
export function timelineModel(result) {
  const collectives = (result.collectives ?? []).map((c) => ({ label: `${opName(c.op)} ${valueText(c.axes)}`.trim(), time: c.time }));
  const serial = [{ kind: 'compute', label: 'compute', start: 0, time: result.t_compute }];
  let at = result.t_compute;
  for (const c of collectives) {
    serial.push({ kind: 'comm', label: c.label, start: at, time: c.time });
    at += c.time;
  }
  const overlapped = [{ kind: 'compute', label: 'compute', start: 0, time: result.t_compute, half: 'top' }];
  at = 0;
  for (const c of collectives) {
    overlapped.push({ kind: 'comm', label: c.label, start: at, time: c.time, half: 'bottom' });
    at += c.time;
  }
  const span = Math.max(result.t_serial ?? 0, result.t_total ?? 0, result.t_compute ?? 0, at) || 1;
  return {
    span,
    lanes: [
      { name: 'one after another', total: result.t_serial, totalName: 't_serial', bars: serial },
      { name: 'overlapped', total: result.t_total, totalName: 't_total', bars: overlapped },
    ],
  };
}

const T_WIDTH = 400;
const T_LANE = 54;

// Each lane: its name and total above, its bars below, across the full width (so the chart
// stays legible when a phone shrinks it); a dashed mark where the lane's total ends.
export function timelineSVG(result) {
  const model = timelineModel(result);
  // To a tenth of a unit: finer is invisible, and every digit is in the page.
  const x = (t) => Math.round((10 * T_WIDTH * t) / model.span) / 10;
  const parts = [];
  model.lanes.forEach((lane, k) => {
    const y = k * T_LANE;
    parts.push(`<text class="lane-name" x="0" y="${y + 12}">${escapeHTML(lane.name)}: ` +
      `<tspan class="lane-total" data-total="${lane.totalName}">${escapeHTML(`${lane.totalName} ${formatValue(lane.total, 's')}`)}</tspan></text>`);
    lane.bars.forEach((bar, i) => {
      const top = y + 18 + (bar.half === 'bottom' ? 14 : 0);
      const height = bar.half ? 13 : 27;
      const width = Math.max(x(bar.start + bar.time) - x(bar.start), bar.time > 0 ? 1 : 0);
      parts.push(`<rect class="bar bar-${bar.kind}" data-bar="${escapeHTML(bar.label)}" x="${x(bar.start)}" y="${top}" ` +
        `width="${width}" height="${height}" opacity="${bar.kind === 'comm' ? 1 - 0.15 * (i % 3) : 1}">` +
        `<title>${escapeHTML(`${bar.label}: ${formatValue(bar.time, 's')}`)}</title></rect>`);
      if (width >= 6.5 * bar.label.length + 8) {
        parts.push(`<text class="bar-label" x="${x(bar.start) + 4}" y="${top + height / 2}" dominant-baseline="central">${escapeHTML(bar.label)}</text>`);
      }
    });
    const end = x(lane.total ?? 0);
    parts.push(`<line class="total-mark" x1="${end}" x2="${end}" y1="${y + 15}" y2="${y + 48}"/>`);
  });
  const axisY = model.lanes.length * T_LANE;
  parts.push(`<line class="axis" x1="0" x2="${T_WIDTH}" y1="${axisY}" y2="${axisY}"/>`,
    `<text class="tick" x="0" y="${axisY + 13}">0</text>`,
    `<text class="tick" x="${T_WIDTH}" y="${axisY + 13}" text-anchor="end">${escapeHTML(formatValue(model.span, 's'))}</text>`);
  return `<svg class="timeline" viewBox="-2 -2 ${T_WIDTH + 4} ${axisY + 20}" role="img" ` +
    `aria-label="compute and communication, one after another and overlapped">${parts.join('')}</svg>`;
}

// The closed section of worked steps. A result without them (a numbers-only engine module)
// gets one that asks for them when opened (data-explain: sb-sharded-matmul fetches a module that
// explains), saying `status` meanwhile; `open` keeps it open across redraws.
export function workedHTML(result, tex = null, { open = false, onOpen = false, status = 'Loading the worked steps…' } = {}) {
  const summary = `<details class="worked"${onOpen && !result.steps?.length ? ' data-explain' : ''}${open ? ' open' : ''}>` +
    '<summary>How the engine worked it out</summary>';
  if (result.steps?.length) return `${summary}${stepsHTML(result.steps, tex)}</details>`;
  return onOpen ? `${summary}<p class="explain-status" role="status" data-explain-status>${escapeHTML(status)}</p></details>` : '';
}

// Everything under the form. tex: LaTeX -> HTML for the worked solution (or null); worked:
// workedHTML's options.
export function plannerBodyHTML(schema, result, tex = null, worked = {}) {
  if (!result) return '<p class="sim-empty">No plan to show: fix the field marked above.</p>';
  const steps = planSteps(result.plan).map((s) => `<li><code>${notationHTML(s)}</code></li>`);
  const outputs = schema?.outputs ?? [];
  return `<p class="case">Case <span class="badge case-badge" data-case>${escapeHTML(result.case)}</span> ` +
    `<span data-case-description>${escapeHTML(result.case_description ?? '')}</span></p>` +
    `<h4 class="results">Plan</h4><ol class="plan" data-plan="${escapeHTML(result.plan ?? '')}">${steps.join('')}</ol>` +
    `<h4 class="results">Time per step</h4><div class="timeline-wrap">${timelineSVG(result)}</div>` +
    `<p class="legend"><span class="key key-compute">compute</span> <span class="key key-comm">communication</span> ` +
    `overlap: <strong data-overlap>${escapeHTML(result.overlap ?? '—')}</strong></p>` +
    `${outputsListHTML(outputs, result, PLAN_OUTPUTS)}` +
    `<h4 class="results">Collectives</h4>${tableHTML(tableColumns(schema, 'collectives'), result.collectives, 'collectives', 'No communication: every device multiplies its own blocks.')}` +
    `<h4 class="results">Alternatives</h4>${tableHTML(tableColumns(schema, 'alternatives'), result.alternatives, 'alternatives', 'No other plan to compare.')}` +
    workedHTML(result, tex, worked);
}

// The form: the schema's inputs (spec across the whole row), a size field for every dimension
// of the spec right after the mesh. The schema's chip overrides (group 'override') are left out.
export function plannerInputs(schema, dims) {
  const main = schema.inputs.filter((i) => i.group !== 'override');
  const at = main.findIndex((i) => i.name === 'mesh') + 1 || main.length;
  return { head: main.slice(0, at), dims: dims.map((name) => dimensionInput(name, schema.dimensions)), tail: main.slice(at) };
}

export function plannerDimsHTML(schema, dims, values, error, prefix = 'plan') {
  return plannerInputs(schema, dims).dims.map((input) =>
    fieldHTML(input, String(values?.[input.name] ?? ''), { prefix, error })).join('');
}

// The whole shadow root. schema: sharded-matmul's; values: field strings by name (dimension
// sizes under their names); run: runPlanner's result (or null); worked: workedHTML's options.
export function plannerHTML({ schema, chips = [], values = {}, run = null, tex = null, prefix = 'plan', worked = {} }) {
  const error = run?.error ?? null;
  const dims = plannerDims(schema, values);
  const { head, tail } = plannerInputs(schema, dims);
  const field = (input) => fieldHTML(input, String(values[input.name] ?? ''), {
    prefix, error, chips, text: effectiveValue(schema, values, input.name), wide: input.name === 'spec',
  });
  const known = new Set([...schema.inputs.map((i) => i.name), ...dims]);
  const general = error && !known.has(error.field) ? error.message : '';
  return `<div class="sb-calc sb-planner${error ? ' is-stale' : ''}">` +
    `<p class="desc">${escapeHTML(schema.description)}: type the shardings of A, B and C in the book’s notation.</p>` +
    `<form class="fields aligned" novalidate>${head.map(field).join('')}` +
    `<div class="dims" data-dims>${plannerDimsHTML(schema, dims, values, error, prefix)}</div>${tail.map(field).join('')}</form>` +
    `<p class="error general" data-error-for="">${escapeHTML(general)}</p>` +
    `<div class="plan-body" data-body>${run ? plannerBodyHTML(schema, run.result, tex, worked) : ''}</div></div>`;
}
