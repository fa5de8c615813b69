// <sb-gpu-chip>'s picture after the form: the chosen GPU beside a chip to compare (a TPU by
// default), each drawn as nested levels, chip, then one core (an SM, a TensorCore), then one
// unit (a subpartition, an MXU), every row beside its counterpart's. The counts and sizes are
// the gpu-chip results of both chips and the catalog's per-core fields. Zoom buttons open the
// same level on both sides; without a script each level is a <details> of its own. Pure: runs
// in the builder and the browser.
import { si, displayText } from '../core/format.js';
import { escapeHTML as esc } from '../core/escape.js';
import { registerLead } from '../core/render.js';

export const CHIP_LEAD = ['cores', 'matrix_units', 'vector_alus', 'on_chip_memory'];
registerLead('gpu-chip', CHIP_LEAD);

// The chip drawn beside the GPU when the page names none.
export const DEFAULT_COMPARE = 'tpu-v5p';

export const DEPTHS = [['1', 'Chip'], ['2', 'One core'], ['3', 'One unit']];

const fieldOf = (chip, name) => chip?.fields?.find((f) => f.name === name) ?? null;
const ok = (v) => typeof v === 'number' && Number.isFinite(v) && v > 0;

// A value as text: a count with its unit, a quantity with an SI prefix, or a dash.
function show(value, unit) {
  if (!ok(value)) return '—';
  return ['B', 'FLOP/s', 'Hz', 'B/s'].includes(unit) ? si(value, unit) : displayText(value, unit);
}

function field(chip, name) {
  const f = fieldOf(chip, name);
  return f && ok(f.value) ? show(f.value, f.unit) : '—';
}

function rows(items) {
  return `<dl>${items.map(([label, text]) => `<dt>${esc(label)}</dt><dd>${esc(text)}</dd>`).join('')}</dl>`;
}

// The three levels of a GPU, from its gpu-chip result r and catalog entry c.
function gpuLevels(r, c) {
  return {
    chip: rows([['SMs', show(r.cores, 'SMs')], ['Tensor Cores', show(r.matrix_units, 'Tensor Cores')],
      ['CUDA cores (fp32 lanes)', show(r.vector_alus, 'ALUs')], ['matrix peak', show(r.matrix_flops, 'FLOP/s')],
      ['vector FLOP/s (boost)', show(r.vector_flops_boost, 'FLOP/s')], ['SMEM, all SMs', show(r.fast_memory, 'B')],
      ['registers, all SMs', show(r.register_memory, 'B')], ['L2', field(c, 'l2_capacity')], ['HBM', field(c, 'hbm_capacity')]]),
    coreName: 'One SM',
    core: rows([['subpartitions', '4'], ['Tensor Cores', field(c, 'tensor_cores_per_sm')], ['CUDA cores', field(c, 'cuda_cores_per_sm')],
      ['SMEM', field(c, 'smem_per_sm')], ['registers', field(c, 'registers_per_sm')], ['resident warps', show(r.resident_warps, 'warps')]]),
    unitName: 'One subpartition',
    unit: rows([['Tensor Core', `${show(r.flops_per_unit_cycle, 'FLOP/cycle')}`], ['warp scheduler', 'one warp of 32 threads a cycle'],
      ['clock', show(r.clock, 'Hz')]]),
  };
}

function tpuLevels(r, c) {
  const mxu = fieldOf(c, 'mxu_size')?.value;
  return {
    chip: rows([['TensorCores', show(r.cores, 'cores')], ['MXUs', show(r.matrix_units, 'MXUs')],
      ['VPU ALUs', show(r.vector_alus, 'ALUs')], ['matrix peak', show(r.matrix_flops, 'FLOP/s')],
      ['vector FLOP/s', '—'], ['VMEM', show(r.fast_memory, 'B')], ['vector registers', show(r.register_memory, 'B')],
      ['L2', '—'], ['HBM', field(c, 'hbm_capacity')]]),
    coreName: 'One TensorCore',
    core: rows([['VPU', `${field(c, 'vpu_sublanes')} × ${field(c, 'vpu_lanes')}, ${field(c, 'vpu_alus_per_slot')} a slot`],
      ['MXUs, whole chip', show(r.matrix_units, 'MXUs')], ['vector registers', field(c, 'vreg_capacity_per_core')],
      ['VMEM, whole chip', show(r.fast_memory, 'B')]]),
    unitName: 'One MXU',
    unit: rows([['systolic array', ok(mxu) ? `${displayText(mxu)} × ${displayText(mxu)} cells` : '—'],
      ['matrix unit', show(r.flops_per_unit_cycle, 'FLOP/cycle')], ['clock', show(r.clock, 'Hz')]]),
  };
}

function cardHTML(r, chip, side) {
  if (!r || !chip) return '';
  const levels = r.kind === 'TPU' ? tpuLevels(r, chip) : gpuLevels(r, chip);
  return `<section class="chip-card" data-side="${side}" aria-label="${esc(chip.name)}"><h5>${esc(chip.name)}</h5>` +
    `<div class="level" data-level="1"><span class="name">The chip</span>${levels.chip}` +
    `<details class="level" data-level="2"><summary>${esc(levels.coreName)}</summary>${levels.core}` +
    `<details class="level" data-level="3"><summary>${esc(levels.unitName)}</summary>${levels.unit}</details></details></div></section>`;
}

// `pair`: { gpu: result, other: result, catalog: engine.chips(), gpuId, otherId, others: [{id, name}] }.
export function chipExtrasHTML(pair) {
  if (!pair?.gpu) return '<div class="gpu-extras" data-extras></div>';
  const chip = (id) => pair.catalog.find((c) => c.id === id);
  const options = pair.others.map((c) => `<option value="${esc(c.id)}"${c.id === pair.otherId ? ' selected' : ''}>${esc(c.name)}</option>`).join('');
  const buttons = DEPTHS.map(([depth, label]) => `<button type="button" data-depth="${depth}" aria-pressed="${depth === '1'}">${esc(label)}</button>`).join('');
  return '<div class="gpu-extras" data-extras>' +
    '<h4 class="results">Side by side, level by level</h4>' +
    `<div class="zoom"><label>Compare with <select data-compare>${options}</select></label></div>` +
    `<div class="zoom" role="group" aria-label="Zoom both chips to a level"><span>Zoom both:</span>${buttons}</div>` +
    `<div class="chip-pair">${cardHTML(pair.gpu, chip(pair.gpuId), 'gpu')}${cardHTML(pair.other, chip(pair.otherId), 'other')}</div>` +
    '<p class="note">Each row sits across from its counterpart: SMs and TensorCores, Tensor Cores and MXUs, CUDA cores and VPU ALUs, ' +
    'SMEM and VMEM. Open a level, or zoom both chips at once.</p></div>';
}

// Both chips' gpu-chip results: { gpu, other, catalog, gpuId, otherId, others }.
export function chipPair(engine, gpuResultOrNull, { chip, dtype, compare }) {
  const catalog = engine.chips();
  const other = engine.calculate('gpu-chip', { chip: compare, dtype }, { steps: false });
  const others = catalog.filter((c) => c.id !== chip).map((c) => ({ id: c.id, name: c.name }));
  return { gpu: gpuResultOrNull, other, catalog, gpuId: chip, otherId: compare, others };
}
