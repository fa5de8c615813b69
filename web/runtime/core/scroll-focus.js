// A box that scrolls sideways (a long formula, a wide table, a code block on a phone) must be
// reachable by keyboard, or its hidden part can be read only with a mouse or a finger. Such a
// box gets tabindex="0" while it overflows, and loses it when a wider window makes it fit, so
// a keyboard user is not stopped at every formula that needs no scrolling.

const BOXES = '.katex-block, main table, pre, .steps li';
const MARK = 'data-scroll-focus';

export function focusScrollable(root = document) {
  for (const box of root.querySelectorAll(BOXES)) {
    const ours = box.hasAttribute(MARK);
    if (!ours && box.hasAttribute('tabindex')) continue; // made focusable by someone else
    if (box.scrollWidth > box.clientWidth + 1) {
      box.setAttribute('tabindex', '0');
      box.setAttribute(MARK, '');
    } else if (ours) {
      box.removeAttribute('tabindex');
      box.removeAttribute(MARK);
    }
  }
}

// Runs on load and after each resize (once the resizing settles).
export function watchScrollable() {
  let timer = 0;
  const run = () => focusScrollable(document);
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', run, { once: true });
  else run();
  window.addEventListener('load', run, { once: true });
  window.addEventListener('resize', () => {
    clearTimeout(timer);
    timer = setTimeout(run, 150);
  });
}
