// A TPU slice as chips and ICI links: pure functions shared by the builder (static picture)
// and <sb-torus> (redraw on a new shape). Nothing is typed here about any chip: the pod shape,
// the cube and the wraparound rule are read from the chip's catalog fields (engine.chips()):
//   torus_dims     2 or 3 axes
//   pod_topology   the pod, e.g. "16x16" (v5e, v6e) or "16x20x28" (v5p)
//   cube_topology  the building block, e.g. "4x4x4" (v4p, v5p); absent on 2D chips
//   wraparound     the rule in words; its note gives the book's source
// Two rules follow mechanically from those numbers, and they are the ones the wraparound text
// states: with a cube, a slice of whole cubes (every axis a multiple of the cube's edge along
// it) wraps on every axis and any other slice on none; without one, an axis wraps exactly when
// it spans the pod's whole axis. A chip with no wraparound text (TPU7x) gets no decision.
import { escapeHTML } from './escape.js';

export const MAX_DRAWN = 1024;
const AXES = ['x', 'y', 'z'];

function field(chip, name) {
  return chip.fields?.find((f) => f.name === name) ?? { value: null, note: '' };
}

const dimsOf = (text) => (typeof text === 'string' ? text.split('x').map(Number) : null);

// The catalog chips that have an ICI torus (their torus_dims and pod_topology are known).
export function torusChips(catalog) {
  return catalog.filter((c) => field(c, 'torus_dims').value && field(c, 'pod_topology').value);
}

// { dims } or { error } for the reader's shape text on this chip.
export function parseShape(text, chip) {
  const n = field(chip, 'torus_dims').value;
  const pod = dimsOf(field(chip, 'pod_topology').value);
  const example = n === 3 ? '4x4x8' : '8x16';
  const trimmed = String(text ?? '').trim().toLowerCase();
  const parts = trimmed.split(/\s*[x×]\s*/);
  if (!trimmed || parts.some((p) => !/^\d+$/.test(p))) {
    return { error: `shape must be ${n} whole numbers joined by x, like ${example}, got "${text}"` };
  }
  if (parts.length !== n) return { error: `a ${chip.name} slice has ${n} axes, like ${example}, got ${parts.length} in "${text}"` };
  const dims = parts.map(Number);
  if (dims.some((d) => d < 1)) return { error: `every axis must be at least 1 chip, got "${text}"` };
  const chips = dims.reduce((a, b) => a * b, 1);
  const podChips = pod.reduce((a, b) => a * b, 1);
  if (chips > podChips) return { error: `${dims.join('x')} is ${chips} chips but a ${chip.name} pod has ${podChips} (${pod.join('x')})` };
  const fits = [...dims].sort((a, b) => a - b).every((d, i) => d <= [...pod].sort((a, b) => a - b)[i]);
  if (!fits) return { error: `${dims.join('x')} does not fit in a ${chip.name} pod (${pod.join('x')}) in any orientation` };
  return { dims };
}

// How this chip decides wraparound: { kind: 'cube' | 'full-axis' | 'unknown', edges, pod, text }.
export function wrapRule(chip) {
  const text = field(chip, 'wraparound').value;
  const pod = dimsOf(field(chip, 'pod_topology').value);
  const cube = dimsOf(field(chip, 'cube_topology').value);
  if (!text || !pod) return { kind: 'unknown', text: text ?? '', pod };
  if (cube) return { kind: 'cube', edges: cube, pod, text };
  return { kind: 'full-axis', pod, text };
}

// Whether axis `axis` of a slice `dims` wraps: true, false, or null when the catalog does not say.
export function wrapsAxis(chip, dims, axis) {
  const rule = wrapRule(chip);
  if (rule.kind === 'unknown') return null;
  if (rule.kind === 'cube') return dims.every((d, i) => d % rule.edges[i] === 0);
  return dims[axis] === rule.pod[axis];
}

// Links one chip has along an axis of `size` chips: none on a 1-chip axis; 2 on a ring; on a
// line, 1 at each end and 2 inside.
export function linksText(size, wraps) {
  if (size === 1) return '0';
  if (wraps) return '2';
  return size === 2 ? '1' : '2 (1 at the ends)';
}

export function torusAxes(chip, dims) {
  return dims.map((size, i) => {
    const wraps = wrapsAxis(chip, dims, i);
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

// What changes with the shape: the axis table, the rule in words and the picture.
export function torusBodyHTML(chip, dims) {
  const axes = torusAxes(chip, dims);
  const rule = wrapRule(chip);
  const wrapNote = field(chip, 'wraparound').note;
  const ruleText = rule.kind === 'unknown'
    ? `The catalog states no wraparound rule for ${escapeHTML(chip.name)}, so no wraparound links are drawn.`
    : `Wraparound on ${escapeHTML(chip.name)}: ${escapeHTML(rule.text)}.`;
  return `${axesTableHTML(axes)}<p class="rule"${wrapNote ? ` title="${escapeHTML(wrapNote)}"` : ''}>${ruleText}</p>` +
    `<p class="legend">Solid lines: ICI links. Dashed stubs: wraparound links, leaving one edge and arriving at the opposite one.</p>` +
    `<div class="picture">${torusSVG(dims, axes)}</div>`;
}

function chipOptionsHTML(chips, chosen) {
  return chips.map((c) => `<option value="${escapeHTML(c.id)}"${c.id === chosen.id ? ' selected' : ''}>${escapeHTML(c.name)}</option>`).join('');
}

// The form and body (the shadow root without its <style>).
export function torusHTML({ catalog, chip, shape, dims, error = '' }) {
  const pod = field(chip, 'pod_topology').value;
  return `<form class="sb-torus" novalidate><div class="fields">` +
    `<div class="field"><label for="torus-chip">chip</label><select id="torus-chip" name="chip">${chipOptionsHTML(torusChips(catalog), chip)}</select></div>` +
    `<div class="field"><label for="torus-shape">slice shape <span class="unit" data-pod>(pod ${escapeHTML(pod)})</span></label>` +
    `<input id="torus-shape" name="shape" type="text" autocomplete="off" spellcheck="false" value="${escapeHTML(shape)}"` +
    `${error ? ' aria-invalid="true"' : ''} aria-describedby="torus-error">` +
    `<span class="error" id="torus-error" data-error-for="shape" role="alert">${escapeHTML(error)}</span></div></div>` +
    `<div class="torus-body" data-body>${dims ? torusBodyHTML(chip, dims) : ''}</div></form>`;
}

export function podText(chip) {
  return `(pod ${field(chip, 'pod_topology').value})`;
}

// The shape to start from on a chip: 4 along every axis.
export function defaultShape(chip) {
  return Array(field(chip, 'torus_dims').value ?? 2).fill(4).join('x');
}
