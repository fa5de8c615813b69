// The page's one progress store, shared by every <sb-exercise> and <sb-progress>, and the
// event that tells them to re-read it. localStorage can be missing or throw (sandboxed
// iframes, some private modes): the store then keeps progress in memory and says so.
import { ProgressStore } from './progress.js';

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
  store ??= new ProgressStore(localStorageOrNull());
  return store;
}

// detail.ids: the exercises that changed (null: any of them). Elements re-read the store.
export function announceProgress(ids = null) {
  document.dispatchEvent(new CustomEvent(PROGRESS_EVENT, { detail: { ids } }));
}

// Calls `onChange` on this page's announcements and on other tabs' writes; returns a remover.
export function watchProgress(onChange) {
  const key = pageProgress().key;
  const fromPage = (event) => onChange(event.detail?.ids ?? null);
  const fromTab = (event) => {
    if (event.key === null || event.key === key) onChange(null);
  };
  document.addEventListener(PROGRESS_EVENT, fromPage);
  window.addEventListener('storage', fromTab);
  return () => {
    document.removeEventListener(PROGRESS_EVENT, fromPage);
    window.removeEventListener('storage', fromTab);
  };
}
