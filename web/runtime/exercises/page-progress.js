// The page's one progress store, shared by every <sb-exercise> and <sb-progress>, and the
// event that tells them to re-read it. localStorage can be missing or throw (sandboxed
// iframes, some private modes): the store then keeps progress in memory and says so.
//
// The store comes in two steps, each only when needed. While this browser holds no progress (a
// first visit), there is nothing to read and no store: the exercises and the progress box show
// none. What is saved is read by a ProgressReader (progress-reader.js); the ProgressStore that
// writes (progress-store.js) replaces it when a first answer is checked or the progress box
// changes the progress. The reader keeps nothing the store would need: it only reads.

export const PROGRESS_KEY = 'scalebook.progress';
export const PROGRESS_EVENT = 'sb-progress';
let store = null;
let reading = null; // the import of the reader, once asked for
let writing = null; // the import of the store that writes, once asked for
let listening = false;

function localStorageOrNull() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

// Whether this browser may hold progress: a key of it, or storage that cannot be listed (the
// reader then says why).
function mayHoldProgress() {
  const storage = localStorageOrNull();
  try {
    for (let i = 0; i < (storage?.length ?? 0); i += 1) if (storage.key(i)?.startsWith(PROGRESS_KEY)) return true;
    return false;
  } catch {
    return true;
  }
}

// One failed import is tried again at the next call.
function once(load, forget) {
  return load().catch((err) => {
    forget();
    throw err;
  });
}

// The page's store as it is now (get, read, notice, backups, exportText), or null while nothing
// saved has been read: then there is nothing to show.
export const currentProgress = () => store;

// Resolves to the page's store, loading the reader the first time.
export function readProgress() {
  reading ??= once(() => import('./progress-reader.js').then(({ ProgressReader }) => {
    store ??= new ProgressReader(localStorageOrNull());
    return store;
  }), () => { reading = null; });
  return reading;
}

// Resolves once what is saved can be shown: to the store, or at once to null when nothing is saved.
export const savedProgress = () => (store || !mayHoldProgress() ? Promise.resolve(store) : readProgress());

// Resolves to the page's store that writes (record, reset, importText, restore), loading it the
// first time.
export function writableProgress() {
  writing ??= once(() => import('./progress-store.js').then(({ ProgressStore }) => {
    if (!(store instanceof ProgressStore)) store = new ProgressStore(localStorageOrNull());
    return store;
  }), () => { writing = null; });
  return writing;
}

// detail.ids: the exercises that changed (null: any of them). Elements re-read the store.
export function announceProgress(ids = null) {
  document.dispatchEvent(new CustomEvent(PROGRESS_EVENT, { detail: { ids } }));
}

// One listener for the page, not one per element: another tab's write may need ours joined back
// in (both answered at the same moment), and that must happen once. Events are handled in order,
// each by the store of that moment.
function listenToOtherTabs() {
  if (listening) return;
  listening = true;
  window.addEventListener('storage', (event) => {
    if (event.storageArea && event.storageArea !== localStorageOrNull()) return;
    if (event.key !== null && !event.key.startsWith(PROGRESS_KEY)) return;
    readProgress().then(() => {
      const ids = store.noteChange(event.key, event.newValue);
      if (ids === null || ids.length) announceProgress(ids);
    }, () => {});
  });
}

// Calls `onChange` on this page's announcements and on other tabs' writes; returns a remover.
export function watchProgress(onChange) {
  listenToOtherTabs();
  const fromPage = (event) => onChange(event.detail?.ids ?? null);
  document.addEventListener(PROGRESS_EVENT, fromPage);
  return () => document.removeEventListener(PROGRESS_EVENT, fromPage);
}
