// The closed sections whose body the build moved to the page's folds page (web/builder/
// lazy-folds.mjs): <details data-lazy=KEY>, in the page or an element's shadow root, the page
// named by <meta name="scalebook-folds">, the body in its <section id="fold-KEY">. A section
// fills the first time it opens (its link to the folds page, for a reader without the script,
// then goes), and says so with a composed `sb-fold-filled` event, so that a live element redraws
// what it holds. The folds page is asked for as soon as a pointer or the focus reaches a summary,
// so that it is usually here by the time the click lands.
const FILLED = 'sb-fold-filled';

let file = null; // the folds page's promise (a parsed document), once asked for

function folds() {
  const url = document.querySelector('meta[name="scalebook-folds"]')?.content;
  if (!url) return Promise.reject(new Error('no folds page'));
  file ??= fetch(url).then((r) => (r.ok ? r.text() : Promise.reject(new Error(`${url}: ${r.status}`))))
    .then((text) => new DOMParser().parseFromString(text, 'text/html'))
    .catch((err) => {
      file = null; // asked again at the next opening
      throw err;
    });
  return file;
}

// Puts the body of `details` back, if it is a section still waiting for one.
export function fillFold(details) {
  if (!details.hasAttribute('data-lazy') || details.hasAttribute('aria-busy')) return;
  details.setAttribute('aria-busy', 'true');
  folds().then((doc) => {
    details.removeAttribute('aria-busy');
    // An element's section sits in a shadow root there, which a parsed <template> holds.
    const section = doc.getElementById(`fold-${details.dataset.lazy}`);
    const body = section?.querySelector('template')?.content.querySelector('[data-fold-body]') ??
      section?.querySelector('[data-fold-body]');
    if (!body || !details.hasAttribute('data-lazy')) return;
    details.removeAttribute('data-lazy');
    details.querySelector(':scope > [data-fold-link]')?.remove();
    details.insertAdjacentHTML('beforeend', body.innerHTML);
    details.dispatchEvent(new CustomEvent(FILLED, { bubbles: true, composed: true }));
  }, () => {
    details.removeAttribute('aria-busy');
    // Closed again, so that opening it once more tries again.
    details.open = false;
  });
}

// Watches the lazy sections under `root` (a document or a shadow root: toggle does not leave
// the tree it fires in, so each root is watched).
function watch(root) {
  root.addEventListener('toggle', (event) => {
    const details = event.target;
    if (details.open && details.matches?.('details[data-lazy]')) fillFold(details);
  }, true);
  const near = (event) => {
    if (event.target.closest?.('details[data-lazy] > summary')) folds().catch(() => {});
  };
  for (const type of ['pointerover', 'focusin', 'touchstart']) root.addEventListener(type, near, { capture: true, passive: true });
}

// Watches the page and the shadow roots of its elements matching `selector` that hold lazy
// sections; nothing on a page without a folds file.
export function watchLazyFolds(selector) {
  if (typeof document === 'undefined' || !document.querySelector('meta[name="scalebook-folds"]')) return;
  watch(document);
  for (const host of document.querySelectorAll(selector)) {
    if (host.shadowRoot?.querySelector('details[data-lazy]')) watch(host.shadowRoot);
  }
}

export const FOLD_FILLED = FILLED;
