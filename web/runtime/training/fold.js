// The training elements' sections a reader opens (<details class="fold" data-fold=NAME>): their
// markup, and redrawing one only while it is open. A closed section keeps its last drawing and
// the newest draw waiting for it; opening it runs that draw, so an edit costs nothing in the
// sections nobody reads (the optimizer's two plots were a third of its repaint).
import { escapeHTML as esc } from '../core/escape.js';

// A section: its title (plain text, escaped here), then its body (markup).
export function foldHTML(name, title, body, { open = false } = {}) {
  return `<details class="fold" data-fold="${esc(name)}"${open ? ' open' : ''}><summary>${esc(title)}</summary>${body}</details>`;
}

const pending = new WeakMap(); // details -> the draw it waits to run

function watch(details) {
  if (details.dataset.watched) return;
  details.dataset.watched = 'yes';
  details.addEventListener('toggle', () => {
    if (!details.open) return;
    const draw = pending.get(details);
    pending.delete(details);
    draw?.();
  });
}

// Runs draw() now if `details` is open (or absent: nothing folds it), else when it next opens.
export function drawWhenOpen(details, draw) {
  if (!details || details.open) {
    if (details) pending.delete(details);
    draw();
    return;
  }
  pending.set(details, draw);
  watch(details);
}

// Sets a node's markup only when it differs from what was last set (an edit that leaves a
// picture as it was touches no node). The markup is kept on the node, not read back from it.
const last = new WeakMap();
export function setHTML(node, html) {
  if (!node || last.get(node) === html) return;
  node.innerHTML = html;
  last.set(node, html);
}
