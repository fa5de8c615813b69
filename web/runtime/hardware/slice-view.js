// A TPU slice as chips and ICI links: pure functions shared by the builder (static picture)
// and <sb-slice> (redraw on a new shape). The engine's slice calculator decides everything
// about the slice (engine.calculate('slice', { chip, shape })): it parses and checks the shape
// against the chip's torus and pod, and applies the catalog's wraparound rule (a slice of whole
// cubes wraps on every axis on v4p/v5p; an axis spanning the pod wraps on v3/v5e/v6e; "unknown"
// on a chip whose catalog states no rule). This file only lists the torus chips, lays the
// engine's answer out as a table and draws it.
import { escapeHTML } from '../core/escape.js';

export const MAX_DRAWN = 1024;
const AXES = ['x', 'y', 'z'];

function field(chip, name) {
  return chip.fields?.find((f) => f.name === name) ?? { value: null, note: '' };
}

// The catalog chips that have an ICI torus (their torus_dims and pod_topology are known).
export function torusChips(catalog) {
  return catalog.filter((c) => field(c, 'torus_dims').value && field(c, 'pod_topology').value);
}

// { slice } (the engine's outputs) or { error: { field, message } } for a shape on a chip.
export function sliceOf(engine, chipId, shape) {
  try {
    return { slice: engine.calculate('slice', { chip: chipId, shape: String(shape ?? '') }, { steps: false }) };
  } catch (err) {
    if (err?.name !== 'CalculatorError') throw err;
    return { error: { field: err.field, message: err.message } };
  }
}

// The slice's sizes, x first.
export function sliceDims(slice) {
  return AXES.slice(0, slice.axes).map((a) => slice[`size_${a}`]);
}

const WRAPS = { yes: true, no: false };

// Links one chip has along an axis of `size` chips: none on a 1-chip axis; 2 on a ring; on a
// line, 1 at each end and 2 inside.
export function linksText(size, wraps) {
  if (size === 1) return '0';
  if (wraps) return '2';
  return size === 2 ? '1' : '2 (1 at the ends)';
}

// One row per axis: its size, whether it wraps (true, false, or null when the catalog does not
// say) and the links a chip has along it.
export function torusAxes(slice) {
  return sliceDims(slice).map((size, i) => {
    const wraps = WRAPS[slice[`wrap_${AXES[i]}`]] ?? null;
    return { axis: AXES[i], size, wraps, links: linksText(size, wraps) };
  });
}

// The picture: z layers side by side, each an x (across) by y (down) grid. Links inside a layer
// are lines; z links join a layer to the next (one per chip, drawn as one band); a wraparound is
// a dashed stub leaving the edge chip, which continues at the opposite edge.
export function torusSVG(dims, axes) {
  const [nx, ny, nz = 1] = dims;
  const total = nx * ny * nz;
  if (total > MAX_DRAWN) {
    return `<p class="too-big">${total} chips are too many to draw (the picture shows up to ${MAX_DRAWN}); the table lists each axis.</p>`;
  }
  const s = nx * ny > 64 ? 22 : 34;
  const r = s > 30 ? 7 : 5;
  const stub = s * 0.6;
  const pad = stub + 14;
  const layerW = (nx - 1) * s;
  const gap = nz > 1 ? s * 1.6 + 2 * stub : 0;
  const top = nz > 1 ? 22 : 0;
  const width = 2 * pad + nz * layerW + (nz - 1) * gap;
  const height = 2 * pad + (ny - 1) * s + top + (nz > 1 && axes[2].wraps ? 26 : 0);
  const X = (x, z) => pad + z * (layerW + gap) + x * s;
  const Y = (y) => pad + top + y * s;
  const parts = [];
  let wrapLinks = 0;
  for (let z = 0; z < nz; z++) {
    if (nz > 1) parts.push(`<text class="layer" x="${X(0, z)}" y="14">z = ${z}</text>`);
    for (let y = 0; y < ny; y++) {
      for (let x = 0; x + 1 < nx; x++) parts.push(`<line class="link ax-x" x1="${X(x, z)}" y1="${Y(y)}" x2="${X(x + 1, z)}" y2="${Y(y)}"/>`);
      if (axes[0].wraps && nx > 1) {
        wrapLinks++;
        parts.push(`<line class="wrap ax-x" x1="${X(0, z)}" y1="${Y(y)}" x2="${X(0, z) - stub}" y2="${Y(y)}"/>`,
          `<line class="wrap ax-x" x1="${X(nx - 1, z)}" y1="${Y(y)}" x2="${X(nx - 1, z) + stub}" y2="${Y(y)}"/>`);
      }
    }
    for (let x = 0; x < nx; x++) {
      for (let y = 0; y + 1 < ny; y++) parts.push(`<line class="link ax-y" x1="${X(x, z)}" y1="${Y(y)}" x2="${X(x, z)}" y2="${Y(y + 1)}"/>`);
      if (axes[1].wraps && ny > 1) {
        wrapLinks++;
        parts.push(`<line class="wrap ax-y" x1="${X(x, z)}" y1="${Y(0)}" x2="${X(x, z)}" y2="${Y(0) - stub}"/>`,
          `<line class="wrap ax-y" x1="${X(x, z)}" y1="${Y(ny - 1)}" x2="${X(x, z)}" y2="${Y(ny - 1) + stub}"/>`);
      }
    }
    if (z + 1 < nz) {
      const x1 = X(nx - 1, z) + stub + 6;
      const x2 = X(0, z + 1) - stub - 6;
      parts.push(`<path class="zband ax-z" d="M${x1} ${Y(0)} H${x2} M${x1} ${Y(ny - 1)} H${x2} M${x1} ${Y(0)} V${Y(ny - 1)} M${x2} ${Y(0)} V${Y(ny - 1)}"/>`,
        `<text class="zlabel" x="${(x1 + x2) / 2}" y="${(Y(0) + Y(ny - 1)) / 2}" text-anchor="middle" dominant-baseline="middle">z</text>`);
    }
    for (let y = 0; y < ny; y++) {
      for (let x = 0; x < nx; x++) parts.push(`<circle class="chip" cx="${X(x, z)}" cy="${Y(y)}" r="${r}"><title>chip (${x}, ${y}${nz > 1 ? `, ${z}` : ''})</title></circle>`);
    }
  }
  if (nz > 1 && axes[2].wraps) {
    wrapLinks += nx * ny;
    const yb = Y(ny - 1) + stub + 14;
    parts.push(`<path class="wrap ax-z" d="M${X(nx - 1, nz - 1)} ${yb - 10} V${yb} H${X(0, 0)} V${yb - 10}"/>`,
      `<text class="zlabel" x="${width / 2}" y="${yb - 4}" text-anchor="middle">z wraps: last layer to first</text>`);
  }
  return `<svg viewBox="0 0 ${width} ${height}" width="${width}" role="img" data-chips="${total}" data-wrap-links="${wrapLinks}" ` +
    `aria-label="${total} chips in a ${dims.join('x')} slice">${parts.join('')}</svg>`;
}

const WRAPS_TEXT = { true: 'yes', false: 'no', null: 'not stated' };

export function axesTableHTML(axes) {
  const rows = axes.map((a) => `<tr data-axis="${a.axis}" data-wraps="${WRAPS_TEXT[a.wraps]}"><th scope="row"><span class="swatch ax-${a.axis}"></span>${a.axis}</th>` +
    `<td>${a.size}</td><td>${WRAPS_TEXT[a.wraps]}</td><td>${escapeHTML(a.links)}</td></tr>`);
  return `<table class="axes"><thead><tr><th scope="col">axis</th><th scope="col">chips</th><th scope="col">wraps</th>` +
    `<th scope="col">ICI links per chip</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function summaryText(slice) {
  const chips = `${slice.chips} chip${slice.chips === 1 ? '' : 's'}`;
  if (slice.hops_max === null || slice.hops_max === undefined) return `${chips}.`;
  return `${chips}; an inner chip uses ${slice.links_per_chip} ICI links; the farthest chip is ${slice.hops_max} hop${slice.hops_max === 1 ? '' : 's'} away.`;
}

// What changes with the shape: the axis table, the rule in words and the picture.
export function sliceBodyHTML(chip, slice) {
  const axes = torusAxes(slice);
  const { value: text, note: wrapNote } = field(chip, 'wraparound');
  const ruleText = !text
    ? `The catalog states no wraparound rule for ${escapeHTML(chip.name)}, so no wraparound links are drawn.`
    : `Wraparound on ${escapeHTML(chip.name)}: ${escapeHTML(text)}.`;
  return `${axesTableHTML(axes)}<p class="summary" data-summary>${summaryText(slice)}</p>` +
    `<p class="rule"${wrapNote ? ` title="${escapeHTML(wrapNote)}"` : ''}>${ruleText}</p>` +
    `<p class="legend">Solid lines: ICI links. Dashed stubs: wraparound links, leaving one edge and arriving at the opposite one.</p>` +
    `<div class="picture" tabindex="0" role="region" aria-label="${escapeHTML(`Chips and links of the ${sliceDims(slice).join('x')} ${chip.name} slice`)}">` +
    `${torusSVG(sliceDims(slice), axes)}</div>`;
}

function chipOptionsHTML(chips, chosen) {
  return chips.map((c) => `<option value="${escapeHTML(c.id)}"${c.id === chosen.id ? ' selected' : ''}>${escapeHTML(c.name)}</option>`).join('');
}

// The form and body of the shadow root.
export function sliceHTML({ catalog, chip, shape, slice, error = '' }) {
  const pod = field(chip, 'pod_topology').value;
  return `<form class="sb-slice" novalidate><div class="fields">` +
    `<div class="field"><label for="slice-chip">chip</label><select id="slice-chip" name="chip">${chipOptionsHTML(torusChips(catalog), chip)}</select></div>` +
    `<div class="field"><label for="slice-shape">slice shape <span class="unit" data-pod>(pod ${escapeHTML(pod)})</span></label>` +
    `<input id="slice-shape" name="shape" type="text" autocomplete="off" spellcheck="false" value="${escapeHTML(shape)}"` +
    `${error ? ' aria-invalid="true"' : ''} aria-describedby="slice-error">` +
    `<span class="error" id="slice-error" data-error-for="shape">${escapeHTML(error)}</span></div></div>` +
    `<div class="slice-body" data-body>${slice ? sliceBodyHTML(chip, slice) : ''}</div></form>`;
}

export function podText(chip) {
  return `(pod ${field(chip, 'pod_topology').value})`;
}

// The shape to start from on a chip: 4 along every axis.
export function defaultShape(chip) {
  return Array(field(chip, 'torus_dims').value ?? 2).fill(4).join('x');
}
