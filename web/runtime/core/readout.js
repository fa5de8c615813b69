// Reading a plot's points: pointing at a plot's readout layer (a focusable rect whose
// data-readout lists its points as [x, y, words] in the SVG's coordinates) shows the nearest
// point, and so do the arrow keys on it (Right and Left step through the points, Home and End
// jump to the ends). The point is marked on the plot and written in words beside it, politely
// announced. One listener per shadow root serves every plot in it, redrawn or not.
const parsed = new WeakMap(); // layer -> { text, points }

function pointsOf(layer) {
  const text = layer.getAttribute('data-readout') ?? '[]';
  let cached = parsed.get(layer);
  if (!cached || cached.text !== text) {
    let points;
    try {
      points = JSON.parse(text);
    } catch {
      points = [];
    }
    cached = { text, points: Array.isArray(points) ? points : [], index: -1 };
    parsed.set(layer, cached);
  }
  return cached;
}

function show(layer, index) {
  const state = pointsOf(layer);
  const point = state.points[index];
  if (!point) return;
  state.index = index;
  const svg = layer.ownerSVGElement;
  const mark = svg?.querySelector('[data-readout-mark]');
  if (mark) {
    mark.setAttribute('cx', point[0]);
    mark.setAttribute('cy', point[1]);
    mark.classList.add('on');
  }
  const words = svg?.parentElement?.querySelector('[data-readout-text]');
  if (words && words.textContent !== point[2]) words.textContent = point[2];
}

function nearest(points, x, y) {
  let best = -1;
  let bestDistance = Infinity;
  points.forEach(([px, py], i) => {
    const d = (px - x) ** 2 + (py - y) ** 2;
    if (d < bestDistance) [best, bestDistance] = [i, d];
  });
  return best;
}

const STEPS = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

export function watchReadouts(root) {
  root.addEventListener('pointermove', (event) => {
    const layer = event.target.closest?.('[data-readout]');
    const matrix = layer?.getScreenCTM?.();
    if (!matrix) return;
    const at = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    const i = nearest(pointsOf(layer).points, at.x, at.y);
    if (i >= 0 && i !== pointsOf(layer).index) show(layer, i);
  });
  root.addEventListener('keydown', (event) => {
    const layer = event.target.closest?.('[data-readout]');
    if (!layer) return;
    const { points, index } = pointsOf(layer);
    if (!points.length) return;
    let next = null;
    if (Object.hasOwn(STEPS, event.key)) next = Math.min(points.length - 1, Math.max(0, index + STEPS[event.key]));
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = points.length - 1;
    if (next === null) return;
    event.preventDefault();
    show(layer, next);
  });
}
