// Sizes that follow the data (a grid's least width, a picture's greatest) cannot be classes,
// and a page under a strict CSP ignores style attributes. Views write them as data-min-width
// and data-max-width; set through the CSSOM, which the policy allows, as they reach the page.
export function sizeAttributes({ minWidth, maxWidth } = {}) {
  return `${minWidth ? ` data-min-width="${minWidth}"` : ''}${maxWidth ? ` data-max-width="${maxWidth}"` : ''}`;
}

export function applySizes(root) {
  for (const el of root.querySelectorAll('[data-min-width], [data-max-width]')) {
    if (el.dataset.minWidth) el.style.minWidth = el.dataset.minWidth;
    if (el.dataset.maxWidth) el.style.maxWidth = el.dataset.maxWidth;
  }
}

// Applies the sizes now and after every change under `root` (the observer's callback runs
// before the next paint).
const watched = new WeakSet();
export function watchSizes(root) {
  if (watched.has(root) || typeof MutationObserver !== 'function') return;
  watched.add(root);
  applySizes(root);
  new MutationObserver(() => applySizes(root)).observe(root, { childList: true, subtree: true });
}
