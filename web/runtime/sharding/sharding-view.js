// Pure renderers of <sb-sharding>: an array spec in the book's notation (A[I_XY, J]) on a
// named mesh (X=2, Y=2), drawn as the mesh of devices, each showing the global array as a grid
// of blocks (pieces along I down, along J across) with the blocks it holds solid and the others
// faint, plus the memory numbers and the JAX line. Which device holds which piece is the
// engine's (engine.shardingLayout); the bytes are the array-memory calculator's. This file
// only lays them out. No DOM, no engine state.
import { escapeHTML } from '../core/escape.js';
import { asError, axesText, effectiveValue, dimensionNames, dimensionInput, fieldHTML, outputsListHTML } from '../core/widget-form.js';
import { sizeAttributes } from '../core/sizes.js';

export { effectiveValue };
export const PRESETS = ['A[I, J]', 'A[I_X, J]', 'A[I_X, J_Y]', 'A[I_XY, J]', 'A[I_YX, J]'];
export const SHARDING_FIELDS = ['array', 'mesh', 'dtype', 'chip'];
// Past these the picture would be a blur: the numbers still show.
export const MAX_DEVICES_DRAWN = 64;
export const MAX_BLOCKS_DRAWN = 64;
// The memory outputs shown, in this order (those the schema has).
export const MEMORY_OUTPUTS = ['local_shape', 'bytes_per_device', 'bytes_total', 'bytes_array', 'replication',
  'devices', 'elements_per_device', 'sharded_over', 'hbm_load_time', 'fits'];

const AREA = 72; // the array drawn inside a device, in SVG units
const PAD = 6;
const HEAD = 14;
const TILE_W = AREA + 2 * PAD;
const TILE_H = AREA + 2 * PAD + HEAD;
const GAP = 8;
const LEFT = 36;
const TOP = 30;

// The dimensions the form asks sizes for: those named in the array's spec (or its default).
export function dimensionNamesOf(schema, values) {
  return dimensionNames(effectiveValue(schema, values, 'array'));
}

// The array-memory request for these field values: array and mesh always, the rest if filled.
export function memoryRequest(schema, values, dims) {
  const request = { array: effectiveValue(schema, values, 'array'), mesh: effectiveValue(schema, values, 'mesh') };
  for (const name of ['dtype', 'chip', ...dims]) {
    const text = String(values?.[name] ?? '').trim();
    if (text !== '') request[name] = text;
  }
  return request;
}

// The engine's layout and, when every dimension has a size, its memory numbers.
// Returns { layout, memory, error, missing }: `missing` names the dimensions without a size.
export function runSharding(engine, schema, values) {
  const request = { array: effectiveValue(schema, values, 'array'), mesh: effectiveValue(schema, values, 'mesh') };
  let layout;
  try {
    layout = engine.shardingLayout(request);
  } catch (err) {
    return { layout: null, memory: null, error: asError(err), missing: [] };
  }
  const dims = layout.dims.map((d) => d.name);
  const missing = dims.filter((name) => String(values?.[name] ?? '').trim() === '');
  if (missing.length) return { layout, memory: null, error: null, missing };
  try {
    return { layout, memory: engine.calculate('array-memory', memoryRequest(schema, values, dims), { steps: false }), error: null, missing };
  } catch (err) {
    return { layout, memory: null, error: asError(err), missing };
  }
}

// Blocks of the global array as drawn: pieces of the first dimension down, of the second across.
export function blockGrid(layout) {
  return { rows: layout.dims[0]?.pieces ?? 1, cols: layout.dims[1]?.pieces ?? 1 };
}

// "10" for piece 1 of I and piece 0 of J (the book's labels); "12,3" once a count passes 9.
export function blockLabel(i, j, dimCount) {
  if (dimCount < 2) return String(i);
  return i < 10 && j < 10 ? `${i}${j}` : `${i},${j}`;
}

// One hue per block, spread round the colour wheel.
const blockHue = (k, count) => Math.round(210 + (360 * k) / Math.max(count, 1)) % 360;

export function blockColor(k, count) {
  return `hsl(${blockHue(k, count)} 70% 55%)`;
}

// The relative luminance (WCAG 2) of blockColor(k, count).
function blockLuminance(k, count) {
  const h = blockHue(k, count);
  const s = 0.7;
  const l = 0.55;
  const a = s * Math.min(l, 1 - l);
  const channel = (n) => {
    const t = (n + h / 30) % 12;
    const c = l - a * Math.max(-1, Math.min(t - 3, 9 - t, 1));
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(8) + 0.0722 * channel(4);
}

// Black or white, whichever stands out more from a held block: over these hues one of the two
// always reaches 4.5:1, where white alone falls to 2:1 on the yellows and greens.
export function blockInk(k, count) {
  const y = blockLuminance(k, count);
  return (y + 0.05) / 0.05 >= 1.05 / (y + 0.05) ? 'ink-dark' : 'ink-light';
}

// Whether `device` holds block (i, j): its piece along each drawn dimension.
export function holds(device, i, j) {
  return device.pieces[0] === i && (device.pieces.length < 2 || device.pieces[1] === j);
}

// Where each device is drawn: one panel per index of the axes after the second, rows along the
// first axis (down), columns along the second (across). A one-axis mesh runs across, 4 a row.
export function meshArrangement(layout) {
  const axes = layout.mesh;
  if (axes.length <= 1) {
    const cols = Math.min(layout.devices.length, 4);
    return [{
      label: '', rows: Math.ceil(layout.devices.length / cols), cols, rowAxis: null, colAxis: null,
      cells: layout.devices.map((device, i) => ({ device, row: Math.floor(i / cols), col: i % cols })),
    }];
  }
  const panels = new Map();
  for (const device of layout.devices) {
    const key = device.coords.slice(2).join(',');
    if (!panels.has(key)) {
      const label = axes.slice(2).map((a, k) => `${a.name}=${device.coords[k + 2]}`).join(', ');
      panels.set(key, { label, rows: axes[0].size, cols: axes[1].size, rowAxis: axes[0], colAxis: axes[1], cells: [] });
    }
    panels.get(key).cells.push({ device, row: device.coords[0], col: device.coords[1] });
  }
  return [...panels.values()];
}

// The symbolic local shape: [I/4, J] for A[I_XY, J] on a 2x2 mesh.
export function localShapeText(layout) {
  return `[${layout.dims.map((d) => (d.pieces > 1 ? `${d.name}/${d.pieces}` : d.name)).join(', ')}]`;
}

// How many devices hold each block: the devices holding piece 0 of every dimension.
export function copiesPerBlock(layout) {
  return layout.devices.filter((d) => d.pieces.every((p) => p === 0)).length;
}

const pyTuple = (items) => `(${items.join(', ')}${items.length === 1 ? ',' : ''})`;

// The JAX lines that make this mesh and put the array on it with this sharding.
export function jaxLines(layout) {
  return [
    `mesh = jax.make_mesh(${pyTuple(layout.mesh.map((a) => a.size))}, ${pyTuple(layout.mesh.map((a) => `'${a.name}'`))})`,
    `${layout.array} = jax.device_put(${layout.array}, NamedSharding(mesh, ${layout.partition_spec}))`,
  ];
}

function tileSVG(device, x, y, grid, dimCount) {
  const { rows, cols } = grid;
  const count = rows * cols;
  const parts = [`<g class="device" data-device="${device.id}" data-coords="${device.coords.join(',')}" transform="translate(${x},${y})">`,
    `<title>device ${device.id} at (${device.coords.join(', ')}) holds piece ${device.pieces.join(', ')}</title>`,
    `<rect class="tile" width="${TILE_W}" height="${TILE_H}" rx="5"/>`,
    `<text class="tile-head" x="${PAD}" y="11">#${device.id} (${device.coords.join(',')})</text>`];
  if (count > MAX_BLOCKS_DRAWN) {
    parts.push(`<text class="tile-note" x="${TILE_W / 2}" y="${HEAD + PAD + AREA / 2}" text-anchor="middle">piece ${escapeHTML(blockLabel(device.pieces[0], device.pieces[1] ?? 0, dimCount))}</text>`);
  } else {
    const w = AREA / cols;
    const h = AREA / rows;
    for (let i = 0; i < rows; ++i) {
      for (let j = 0; j < cols; ++j) {
        const held = holds(device, i, j);
        const bx = PAD + j * w;
        const by = HEAD + PAD + i * h;
        parts.push(`<rect class="block${held ? ' held' : ''}" data-block="${i},${j}" x="${bx}" y="${by}" width="${w}" height="${h}" ` +
          `fill="${blockColor(i * cols + j, count)}"/>`);
        if (Math.min(w, h) >= 12) {
          const size = Math.min(11, Math.floor(Math.min(w, h) * 0.55));
          parts.push(`<text class="block-label${held ? ` held ${blockInk(i * cols + j, count)}` : ''}" x="${bx + w / 2}" y="${by + h / 2}" font-size="${size}" ` +
            `text-anchor="middle" dominant-baseline="central">${blockLabel(i, j, dimCount)}</text>`);
        }
      }
    }
  }
  parts.push('</g>');
  return parts.join('');
}

function panelSVG(panel, grid, dimCount) {
  const width = LEFT + panel.cols * (TILE_W + GAP);
  const height = TOP + panel.rows * (TILE_H + GAP);
  const parts = [];
  if (panel.rowAxis) {
    parts.push(`<text class="axis-title" x="2" y="12">${escapeHTML(panel.rowAxis.name)} ↓  ${escapeHTML(panel.colAxis.name)} →</text>`);
    for (let r = 0; r < panel.rows; ++r) {
      parts.push(`<text class="axis-tick" x="2" y="${TOP + r * (TILE_H + GAP) + TILE_H / 2}" dominant-baseline="central">${escapeHTML(panel.rowAxis.name)}=${r}</text>`);
    }
    for (let c = 0; c < panel.cols; ++c) {
      parts.push(`<text class="axis-tick" x="${LEFT + c * (TILE_W + GAP) + TILE_W / 2}" y="${TOP - 5}" text-anchor="middle">${escapeHTML(panel.colAxis.name)}=${c}</text>`);
    }
  }
  for (const { device, row, col } of panel.cells) {
    parts.push(tileSVG(device, LEFT + col * (TILE_W + GAP), TOP + row * (TILE_H + GAP), grid, dimCount));
  }
  const label = panel.label ? `<p class="panel-label">${escapeHTML(panel.label)}</p>` : '';
  // Shrinks with the page down to about 4.5rem a device, then the picture scrolls sideways.
  return `<figure class="mesh-panel"${sizeAttributes({ maxWidth: `${Math.round(width * 1.5)}px` })}>${label}<svg class="mesh" viewBox="0 0 ${width} ${height}" ` +
    `${sizeAttributes({ minWidth: `${Math.min(panel.cols * 4 + 2, 40)}rem` })} role="img" aria-label="${panel.rows * panel.cols} devices` +
    `${panel.label ? ` at ${escapeHTML(panel.label)}` : ''}">${parts.join('')}</svg></figure>`;
}

// The picture: one SVG per panel, or a sentence when the mesh is too big to draw.
export function meshPictureHTML(layout) {
  if (layout.devices.length > MAX_DEVICES_DRAWN) {
    return `<p class="too-big">${layout.devices.length} devices are too many to draw (the picture shows up to ${MAX_DEVICES_DRAWN}).</p>`;
  }
  const grid = blockGrid(layout);
  const panels = meshArrangement(layout).map((panel) => panelSVG(panel, grid, layout.dims.length));
  return `<div class="mesh-panels">${panels.join('')}</div>`;
}

// What the picture shows, in words: dimensions, their axes, copies of each block.
export function captionText(layout) {
  const dims = layout.dims.map((d) => (axesText(d.axes)
    ? `${d.name} is split ${d.pieces} ways over ${axesText(d.axes)}`
    : `${d.name} is not split`));
  const copies = copiesPerBlock(layout);
  const drawn = layout.dims.length > 2 ? ` Only ${layout.dims[0].name} and ${layout.dims[1].name} are drawn.` : '';
  const unreduced = axesText(layout.unreduced) ? ` Unreduced over ${axesText(layout.unreduced)}: each device holds partial sums.` : '';
  return `${dims.join('; ')}. Every block is on ${copies} device${copies === 1 ? '' : 's'}.${drawn}${unreduced}`;
}

// Everything under the form: picture, caption, numbers, JAX line. `run` from runSharding.
export function shardingBodyHTML(schema, run) {
  const { layout, memory, missing = [] } = run;
  if (!layout) return '<p class="sim-empty">No picture to show: fix the field marked above.</p>';
  const needs = missing.length
    ? `<p class="hint" data-hint>Give the size of ${missing.join(' and ')} for the bytes.</p>` : '';
  const outputs = schema?.outputs ?? [];
  return `<p class="caption" data-caption>${escapeHTML(captionText(layout))}</p>` +
    `<div class="shard-picture">${meshPictureHTML(layout)}</div>` +
    `<div class="shard-numbers">${needs}` +
    `${outputsListHTML(outputs, memory, MEMORY_OUTPUTS, { stale: !memory, lead: [['Local shape (symbolic)', escapeHTML(localShapeText(layout)), 'data-local']] })}` +
    `<p class="jax-title">In JAX:</p><pre class="jax" data-jax><code>${escapeHTML(jaxLines(layout).join('\n'))}</code></pre></div>`;
}

// The form's inputs: the schema's array, mesh, dtype and chip, with a size field for every
// dimension of the array after the mesh (named by the spec).
export function shardingInputs(schema, dims) {
  const pick = (name) => schema.inputs.find((i) => i.name === name);
  const [array, mesh, ...rest] = SHARDING_FIELDS.map(pick);
  return { head: [array, mesh].filter(Boolean), dims: dims.map((name) => dimensionInput(name, schema.dimensions)), tail: rest.filter(Boolean) };
}

export function dimsHTML(schema, dims, values, error, prefix = 'shard') {
  return shardingInputs(schema, dims).dims.map((input) =>
    fieldHTML(input, String(values?.[input.name] ?? ''), { prefix, error })).join('');
}

export function presetsHTML(current) {
  const buttons = PRESETS.map((spec) => `<button type="button" data-preset="${escapeHTML(spec)}"` +
    ` aria-pressed="${spec === current}">${escapeHTML(spec)}</button>`);
  return `<div class="presets" role="group" aria-label="Example shardings">${buttons.join('')}</div>`;
}

// The whole shadow root. schema: array-memory's; values: field strings by name (dimension
// sizes under their names); run: runSharding's result (or null before the engine).
export function shardingHTML({ schema, chips = [], values = {}, run = null, prefix = 'shard' }) {
  const error = run?.error ?? null;
  const array = effectiveValue(schema, values, 'array');
  const dims = dimensionNamesOf(schema, values);
  const { head, tail } = shardingInputs(schema, dims);
  const textOf = (name) => effectiveValue(schema, values, name);
  const field = (input) => fieldHTML(input, String(values[input.name] ?? ''), { prefix, error, chips, text: textOf(input.name) });
  const known = new Set([...SHARDING_FIELDS, ...dims]);
  const general = error && !known.has(error.field) ? error.message : '';
  return `<div class="sb-calc sb-shard${error ? ' is-stale' : ''}">` +
    `<p class="desc">How an array is split over a mesh of devices: type a sharding in the book’s notation.</p>` +
    `<form class="fields aligned" novalidate>${head.map(field).join('')}` +
    `<div class="dims" data-dims>${dimsHTML(schema, dims, values, error, prefix)}</div>${tail.map(field).join('')}</form>` +
    presetsHTML(array) +
    `<p class="error general" data-error-for="">${escapeHTML(general)}</p>` +
    `<div class="shard-body" data-body>${run ? shardingBodyHTML(schema, run) : ''}</div></div>`;
}
