// When a page fetches its engine. The build draws every element with its numbers, so a page
// reads complete without it, and on a phone 100-250 kB of engine a reader may never use is a
// cost. So the page "wakes" the first time the reader gets to one of its elements: one scrolls
// on screen, or is pointed at, touched or focused (a keyboard or screen-reader user reaching a
// field below the fold). An element the build did not draw (an embed, one added by script)
// wakes the page at once, as does anything that needs the engine for an action.
let awake = false;
let resolve;
const woken = new Promise((done) => { resolve = done; });

export function wake() {
  if (awake) return;
  awake = true;
  onScreen?.disconnect();
  for (const type of INTENT) document.removeEventListener(type, reached, true);
  resolve();
}

export const isAwake = () => awake;
export const whenAwake = () => woken;

const onScreen = typeof IntersectionObserver === 'function'
  ? new IntersectionObserver((entries) => { if (entries.some((entry) => entry.isIntersecting)) wake(); })
  : null;

const INTENT = ['pointerover', 'touchstart', 'focusin'];
function reached(event) {
  if (event.composedPath().some((node) => node instanceof Element && node.localName.startsWith('sb-'))) wake();
}
if (typeof document !== 'undefined') {
  for (const type of INTENT) document.addEventListener(type, reached, { capture: true, passive: true });
}

// The page wakes when `host` comes on screen (at once where that cannot be watched).
export function wakeWhenSeen(host) {
  if (awake) return;
  if (onScreen) onScreen.observe(host);
  else wake();
}
