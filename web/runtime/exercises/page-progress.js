// The page's one progress store, shared by every <sb-exercise> and <sb-progress>, and the
// event that tells them to re-read it. localStorage can be missing or throw (sandboxed
// iframes, some private modes): the store then keeps progress in memory and says so.
import { ProgressStore } from './progress-store.js';

export const PROGRESS_EVENT = 'sb-progress';
let store = null;

function localStorageOrNull() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export function pageProgress() {
  if (store) return store;
  store = new ProgressStore(localStorageOrNull());
  // One listener for the page, not one per element: another tab's write may need ours joined
  // back in (both answered at the same moment), and that must happen once.
  window.addEventListener('storage', (event) => {
    if (event.storageArea && event.storageArea !== localStorageOrNull()) return;
    const ids = store.noteChange(event.key, event.newValue);
    if (ids === null || ids.length) announceProgress(ids);
  });
  return store;
}

// detail.ids: the exercises that changed (null: any of them). Elements re-read the store.
export function announceProgress(ids = null) {
  document.dispatchEvent(new CustomEvent(PROGRESS_EVENT, { detail: { ids } }));
}

// Calls `onChange` on this page's announcements and on other tabs' writes; returns a remover.
export function watchProgress(onChange) {
  pageProgress();
  const fromPage = (event) => onChange(event.detail?.ids ?? null);
  document.addEventListener(PROGRESS_EVENT, fromPage);
  return () => document.removeEventListener(PROGRESS_EVENT, fromPage);
}
