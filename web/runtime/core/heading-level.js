// A widget's own headings (Results, Plan, Totals, ...) are written as <h4>, but a widget
// sits under whatever heading the page put before it: under an h2 an h4 skips a level, which
// screen-reader users navigating by heading hear as a missing section. So each one takes the
// level one below the page's last heading before the element (aria-level; 2 when there is
// none), and keeps it as the widget re-renders.

const HEADINGS = 'h1, h2, h3, h4, h5, h6, [role="heading"]';

function levelOf(heading) {
  const aria = Number(heading.getAttribute('aria-level'));
  if (aria >= 1) return aria;
  return Number(heading.tagName.slice(1)) || 2;
}

// The level for headings inside `host`'s shadow root.
export function levelBelow(host) {
  const scope = host.getRootNode();
  let before = null;
  for (const heading of scope.querySelectorAll?.(HEADINGS) ?? []) {
    if (heading.compareDocumentPosition(host) & Node.DOCUMENT_POSITION_FOLLOWING) before = heading;
    else break;
  }
  return before ? Math.min(6, levelOf(before) + 1) : 2;
}

// The shallowest heading of the root takes `level`; deeper ones keep their distance from it.
function fit(root, level) {
  const headings = [...root.querySelectorAll('h1, h2, h3, h4, h5, h6')];
  const top = Math.min(...headings.map((h) => Number(h.tagName[1])));
  for (const heading of headings) {
    const want = String(Math.min(6, level + Number(heading.tagName[1]) - top));
    if (heading.tagName !== `H${want}` && heading.getAttribute('aria-level') !== want) heading.setAttribute('aria-level', want);
  }
}

// Keeps the headings of `host`'s shadow root at levelBelow(host), now and after each render.
export function fitHeadings(host) {
  const root = host.shadowRoot;
  if (!root || host.isConnected === false) return null;
  const level = levelBelow(host);
  fit(root, level);
  const observer = new MutationObserver(() => fit(root, level));
  observer.observe(root, { childList: true, subtree: true });
  return observer;
}
