// ProgressReader reads the reader's progress (progress-format.js) from a Storage-like object:
// localStorage in the page, a Map-backed stand-in in Node tests. What a page needs before anyone
// answers (the solved badges, the saved answers, the progress box's counts and export) is here;
// what writes (a check, a reset, an import, a restore) is ProgressStore, progress-store.js,
// which extends it and comes only when needed (page-progress.js, which loads this only once
// something is saved). Nothing here touches the DOM or writes to the storage.
//
// Layout: one key per exercise, "scalebook.progress/ID", holding the progress format with that
// one exercise (or, after a reset, no exercise and `reset`: the time). The single key
// "scalebook.progress" of earlier pages is read too, under the per-exercise keys. A value that
// cannot be read is set aside and named in `notice`; the rest is used.
import { FORMAT, VERSION, parseProgress } from './progress-format.js';
import { PROGRESS_KEY } from './page-progress.js';

export { PROGRESS_KEY };

// A Storage that only lives in memory: the fallback when localStorage is missing or refuses.
export class MemoryStorage {
  #items = new Map();
  getItem(key) { return this.#items.has(key) ? this.#items.get(key) : null; }
  setItem(key, value) { this.#items.set(key, String(value)); }
  removeItem(key) { this.#items.delete(key); }
  get length() { return this.#items.size; }
  key(i) { return [...this.#items.keys()][i] ?? null; }
}

export const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

export class ProgressReader {
  notice = ''; // what reading found: records set aside, no storage at all
  #storage;
  #key;
  #now;
  #noStorage = '';
  #cache = new Map(); // value text -> what it holds; every element re-reads the store on every change

  constructor(storage, { key = PROGRESS_KEY, now = () => new Date().toISOString() } = {}) {
    this.#storage = storage ?? new MemoryStorage();
    this.#key = key;
    this.#now = now;
  }

  get key() { return this.#key; }
  get prefix() { return `${this.#key}/`; }
  // The storage read: a MemoryStorage once the browser's could not even be read.
  get storage() { return this.#storage; }
  now() { return this.#now(); }

  read() {
    const problems = [];
    const legacy = this.#legacy(problems);
    const exercises = { ...legacy.state.exercises };
    for (const id of this.#entryIds()) {
      const entry = this.#entry(id);
      if (entry.problem) problems.push(`exercise ${id}: ${entry.problem}`);
      else if (entry.record) exercises[id] = entry.record;
      else if (entry.reset) delete exercises[id];
    }
    this.#say(legacy.error, problems);
    return { format: FORMAT, version: VERSION, exercises };
  }

  get(id) {
    const entry = this.#entry(id);
    const record = entry.record ?? (entry.reset ? null : this.legacyRecord(id));
    return record ? structuredClone(record) : null;
  }

  exportText() {
    return `${JSON.stringify({ ...this.read(), exported: this.#now() }, null, 2)}\n`;
  }

  // The copies of unreadable progress that earlier pages set aside ("KEY.backup", "-2", ...).
  backups() {
    return this.#keys().filter((k) => k.startsWith(`${this.#key}.backup`)).sort();
  }

  // Another tab changed `key` (a 'storage' event): the exercise ids that may have changed, or
  // null for any of them.
  noteChange(key) {
    if (key === null) return null;
    if (!key.startsWith(this.prefix)) return key.startsWith(this.#key) ? null : [];
    return [key.slice(this.prefix.length)];
  }

  // One per-exercise value's text read: { record, reset, problem, newer }.
  entryOf(text, id) {
    if (text === null) return { record: null, reset: null, problem: '', newer: false };
    const hit = this.#cache.get(text);
    if (hit?.id === id) return hit.entry;
    const { state, error, problems, newer } = parseProgress(text);
    let entry;
    if (error || problems.length) entry = { record: null, reset: null, problem: error || problems.join('; '), newer };
    else {
      const reset = JSON.parse(text).reset;
      entry = { record: state.exercises[id] ?? null, reset: typeof reset === 'string' ? reset : null, problem: '', newer };
    }
    if (this.#cache.size > 500) this.#cache.clear();
    this.#cache.set(text, { id, entry });
    return entry;
  }

  // Exercise `id`'s record under the single key of earlier pages, or null.
  legacyRecord(id) {
    return this.#legacy([]).state.exercises[id] ?? null;
  }

  #keys() {
    try {
      const keys = [];
      for (let i = 0; i < this.#storage.length; i += 1) keys.push(this.#storage.key(i));
      return keys.filter((k) => typeof k === 'string');
    } catch (err) {
      this.#fallBack(err);
      return [];
    }
  }

  #legacy(problems) {
    const text = this.#getItem(this.#key);
    const hit = this.#cache.get(text);
    const parsed = hit?.id === null ? hit.entry : parseProgress(text);
    if (text !== null) this.#cache.set(text, { id: null, entry: parsed });
    problems.push(...parsed.problems);
    return parsed;
  }

  #entry(id) {
    return this.entryOf(this.#getItem(this.prefix + id), id);
  }

  #entryIds() {
    return this.#keys().filter((k) => k.startsWith(this.prefix)).map((k) => k.slice(this.prefix.length));
  }

  #getItem(key) {
    try {
      return this.#storage.getItem(key);
    } catch (err) {
      this.#fallBack(err);
      return null;
    }
  }

  // Storage that cannot even be read (disabled, some private modes): keep going in memory.
  #fallBack(err) {
    this.#storage = new MemoryStorage();
    this.#noStorage = `Progress cannot be saved in this browser (${err?.message ?? err}); it lasts until you leave the page.`;
  }

  #say(legacyError, problems) {
    const lines = [];
    if (this.#noStorage) lines.push(this.#noStorage);
    if (legacyError) {
      lines.push(`Your saved progress could not be read (${legacyError}), so it is not used; it is left as it was in this browser's storage.`);
    }
    if (problems.length) {
      lines.push(`${plural(problems.length, 'saved record')} could not be read and ${problems.length === 1 ? 'is' : 'are'} ` +
        `set aside, left as ${problems.length === 1 ? 'it was' : 'they were'} (${problems.join('; ')}); the rest is used.`);
    }
    this.notice = lines.join(' ');
  }
}
