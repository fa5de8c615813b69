// One axis system for every plot: d3-scale maps values to pixels and picks round ticks (it
// has no DOM dependency, so the builder and the page share it); the SVG drawing of gridlines,
// tick marks, labels and the axis lines is ours, below. Labels are the plot's (format.js).
// Positions round to 0.1 px so the markup is short and the same in Node and the browser.
import { scaleLinear, scaleLog } from 'd3-scale';
import { escapeHTML as esc } from './escape.js';

const tenth = (v) => Math.round(v * 10) / 10;

function wrap(scale) {
  const map = (v) => tenth(scale(v));
  map.scale = scale;
  return map;
}

// The plotting area of a width x height SVG inside `margin`: its edges and size.
export function plotArea(width, height, margin) {
  const left = margin.left;
  const right = width - margin.right;
  const top = margin.top;
  const bottom = height - margin.bottom;
  return { left, right, top, bottom, w: right - left, h: bottom - top };
}

// A linear axis from domain [d0, d1] to pixels [r0, r1]; ticks(count): about count round values.
export function linearAxis(domain, range) {
  const map = wrap(scaleLinear().domain(domain).range(range));
  map.ticks = (count) => map.scale.ticks(count);
  return map;
}

// A log axis; ticks(every): the whole decades in the domain, every `every`-th one.
export function logAxis(domain, range) {
  const map = wrap(scaleLog().domain(domain).range(range));
  map.ticks = (every = 1) => {
    const decades = map.scale.ticks().filter((t) => Math.abs(Math.log10(t) - Math.round(Math.log10(t))) < 1e-9);
    const first = Math.round(Math.log10(decades[0] ?? 1));
    return decades.filter((t) => (Math.round(Math.log10(t)) - first) % every === 0);
  };
  return map;
}

// An axis's gridlines, tick marks and labels as SVG: one <g class="tick"> a value. side
// 'bottom': ticks along the bottom edge y = `edge`, gridlines across y in `across`; 'left':
// along the left edge x = `edge`, gridlines across x in `across`. `mark`: the tick mark's
// length (0: none); `label(v)`: its text; `minor(v, i)`: a label narrow screens hide (styles.js).
export function ticksSVG(axis, values, { side, edge, across, label, mark = 0, gap = side === 'bottom' ? 18 : 8, minor = () => false }) {
  const start = axis.scale.range()[0];
  return values.map((v, i) => {
    const p = axis(v);
    const open = `<g class="tick${minor(v, i) ? ' minor' : ''}">`;
    const text = esc(label(v));
    if (side === 'bottom') {
      // A label at the very corner starts there instead of centring on it, clear of the left
      // axis's lowest label whatever the font size.
      const anchor = Math.abs(p - start) < 1 ? 'start' : 'middle';
      return `${open}<line class="grid" x1="${p}" y1="${across[0]}" x2="${p}" y2="${across[1]}" stroke="currentColor" stroke-opacity="0.15"/>` +
        (mark ? `<line x1="${p}" y1="${edge}" x2="${p}" y2="${edge + mark}" stroke="currentColor"/>` : '') +
        `<text x="${p}" y="${edge + gap}" text-anchor="${anchor}" fill="currentColor">${text}</text></g>`;
    }
    return `${open}<line class="grid" x1="${across[0]}" y1="${p}" x2="${across[1]}" y2="${p}" stroke="currentColor" stroke-opacity="0.15"/>` +
      (mark ? `<line x1="${edge - mark}" y1="${p}" x2="${edge}" y2="${p}" stroke="currentColor"/>` : '') +
      `<text x="${edge - gap}" y="${tenth(p + 4)}" text-anchor="end" fill="currentColor">${text}</text></g>`;
  }).join('');
}

// The two axis lines: up the left edge and along the bottom.
export function frameSVG({ left, top, right, bottom }) {
  return `<path class="axis" d="M${left},${top} V${bottom} H${right}" fill="none" stroke="currentColor"/>`;
}
