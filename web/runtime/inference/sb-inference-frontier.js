// <sb-inference-frontier>: chapter 7's latency-throughput frontier, the calculator form with
// every slice and batch it tried as a scatter (frontier-view.js). The points are a listbox with
// one of them in the tab order: the arrow keys move the focus (Left and Right along a slice's
// batches, Up and Down to the same batch on the next slice, Home and End), and the point
// pointed at or focused is ringed and written out under the plot, its name the same words.
import { SbCalculator } from '../core/sb-calculator.js';
import { frontierExtrasHTML, pointWords, layout, pointsTableHTML } from './frontier-view.js';
import './inference-css.js';
import './panel-css.js';

export class SbInferenceFrontier extends SbCalculator {
  static calculator = 'inference-frontier';

  #table = null; // the schema's points table: its columns' labels and units
  #laid = null; // the points' positions in the plot for the last result, for the pointer

  start(engine) {
    this.#table = engine.schema(this.calculator).tables?.find((t) => t.name === 'points') ?? null;
    this.addEventListener('sb-change', (event) => {
      if (event.target !== this) return;
      const extras = this.shadowRoot.querySelector('[data-extras]');
      if (!extras) return;
      const open = extras.querySelector('details[data-fold="points"]')?.open;
      extras.outerHTML = frontierExtrasHTML(event.detail.result, event.detail.inputs);
      // Reopened, the fold's toggle draws the new rows.
      if (open) this.shadowRoot.querySelector('[data-extras] details[data-fold="points"]').open = true;
    });
    super.start(engine);
    this.#wirePoints();
    // toggle does not bubble: caught on its way down instead.
    this.shadowRoot.addEventListener('toggle', (event) => {
      if (event.target.matches?.('details[data-fold="points"]') && event.target.open) this.#drawTable();
    }, true);
  }

  // The folded points table, drawn when opened (and kept open through a redraw).
  #drawTable() {
    const fold = this.shadowRoot.querySelector('[data-extras] details[data-fold="points"]');
    const box = fold?.querySelector('[data-points-box]');
    if (!box || !this.#table || !this.result) return;
    box.innerHTML = pointsTableHTML(this.#table, this.result.points);
  }

  // Before the first result (an embed the build did not draw), the target comes from the attribute.
  afterFormHTML(result) {
    return frontierExtrasHTML(result, { target_latency: this.getAttribute('target_latency') ?? '' });
  }

  // Listeners on the shadow root, so they outlive every redraw of the plot.
  #wirePoints() {
    const root = this.shadowRoot;
    // A point focused by a click or a tap becomes the one in the tab order, as an arrow key's does.
    root.addEventListener('focusin', (event) => {
      const point = event.target.closest?.('[role="option"]');
      if (!point) return;
      for (const other of point.ownerSVGElement.querySelectorAll('[role="option"][tabindex="0"]')) other.setAttribute('tabindex', '-1');
      point.setAttribute('tabindex', '0');
      this.#show(point, true);
    });
    // A mouse reads as it moves; a finger reads where it touches (a tap moves no pointer).
    const point = (event) => {
      const svg = event.target.closest?.('svg.frontier-plot');
      if (!svg) return;
      const i = this.#nearest(svg, event);
      const at = i < 0 ? null : svg.querySelector(`[data-i="${i}"]`);
      if (at) this.#show(at);
    };
    root.addEventListener('pointermove', point);
    root.addEventListener('pointerdown', point);
    root.addEventListener('keydown', (event) => {
      const point = event.target.closest?.('[role="option"]');
      if (!point) return;
      const next = this.#step(point, event.key);
      if (next === null) return;
      event.preventDefault();
      const target = point.ownerSVGElement.querySelector(`[data-i="${next}"]`);
      if (!target) return;
      this.#show(target, true); // names it before the focus moves, so a screen reader reads it all
      target.focus();
    });
  }

  // The index the key moves to from `point`, or null for a key that moves nothing.
  #step(point, key) {
    const points = this.result?.points;
    const i = Number(point.dataset.i);
    const last = point.ownerSVGElement.querySelectorAll('[role="option"]').length - 1;
    if (key === 'Home') return 0;
    if (key === 'End') return last;
    if (key === 'ArrowRight' || key === 'ArrowLeft') return Math.min(last, Math.max(0, i + (key === 'ArrowRight' ? 1 : -1)));
    if ((key !== 'ArrowDown' && key !== 'ArrowUp') || !points?.[i]) return key === 'ArrowDown' || key === 'ArrowUp' ? i : null;
    // The same batch on the next (Down) or previous (Up) slice, or the nearest batch there.
    const shapes = [...new Set(points.map((p) => p.shape))];
    const to = shapes[shapes.indexOf(points[i].shape) + (key === 'ArrowDown' ? 1 : -1)];
    if (to === undefined) return i;
    let best = i;
    let gap = Infinity;
    points.forEach((p, k) => {
      const d = Math.abs(Math.log(p.batch / points[i].batch));
      if (p.shape === to && d < gap) [best, gap] = [k, d];
    });
    return best;
  }

  // The point nearest the pointer, within a few marker widths (in the plot's own units).
  #nearest(svg, event) {
    const matrix = svg.getScreenCTM?.();
    if (!matrix || !this.result) return -1;
    const at = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    let best = -1;
    let bestD = 24 ** 2;
    if (this.#laid?.result !== this.result) this.#laid = { result: this.result, points: layout(this.result).points };
    this.#laid.points.forEach(([px, py], i) => {
      const d = (px - at.x) ** 2 + (py - at.y) ** 2;
      if (d < bestD) [best, bestD] = [i, d];
    });
    return best;
  }

  // Rings the point, names it in full and writes its numbers under the plot; a focused point is
  // also the list's selected option (pointing only reads).
  #show(point, focused = false) {
    const p = this.result?.points?.[Number(point.dataset.i)];
    const svg = point.ownerSVGElement;
    const ring = svg.querySelector('[data-ring]');
    const box = point.getBBox();
    ring.setAttribute('cx', String(box.x + box.width / 2));
    ring.setAttribute('cy', String(box.y + box.height / 2));
    ring.classList.add('on');
    const words = p ? pointWords(p) : point.getAttribute('aria-label');
    point.setAttribute('aria-label', words);
    if (focused) {
      for (const other of svg.querySelectorAll('[aria-selected="true"]')) other.setAttribute('aria-selected', 'false');
      point.setAttribute('aria-selected', 'true');
    }
    const readout = this.shadowRoot.querySelector('[data-readout-text]');
    if (readout && readout.textContent !== words) readout.textContent = words;
  }
}
