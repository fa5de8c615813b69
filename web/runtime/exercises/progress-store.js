// ProgressStore keeps the reader's progress (progress.js) in a Storage-like object: localStorage
// in the page, a Map-backed stand-in in Node tests. Nothing here touches the DOM.
//
// Layout: one key per exercise, "scalebook.progress/ID", holding the progress format with that
// one exercise (or, after a reset, no exercise and `reset`: the time). One key per exercise
// means two tabs answering different exercises never write the same value, and one bad value
// hides nothing else. The single key "scalebook.progress" of earlier pages is still read, under
// the per-exercise keys, and never written again.
//
// Nothing stored that this page cannot read is lost: a bad record is set aside (named in
// `notice` and left as it was, or copied to a backup key first if that exercise is answered
// again); a value from a newer Scalebook is never touched. When a write fails (storage full),
// what was stored stays, the answer is kept in memory, and `writeProblem` says so, for the
// exercise being answered to show. The progress box can restore any backup.
import {
  FORMAT, VERSION, parseProgress, recordCheck, mergeProgress, joinRecords, covers,
} from './progress.js';

export const PROGRESS_KEY = 'scalebook.progress';

// A Storage that only lives in memory: the fallback when localStorage is missing or refuses.
export class MemoryStorage {
  #items = new Map();
  getItem(key) { return this.#items.has(key) ? this.#items.get(key) : null; }
  setItem(key, value) { this.#items.set(key, String(value)); }
  removeItem(key) { this.#items.delete(key); }
  get length() { return this.#items.size; }
  key(i) { return [...this.#items.keys()][i] ?? null; }
}

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
const isFull = (err) => err?.name === 'QuotaExceededError' || err?.code === 22;

// One per-exercise value read: { record, reset, problem, newer }. Parsed values are cached by
// their text, since every element re-reads the store on every change.
function readEntry(text, id, cache) {
  if (text === null) return { record: null, reset: null, problem: '', newer: false };
  const hit = cache.get(text);
  if (hit?.id === id) return hit.entry;
  const { state, error, problems, newer } = parseProgress(text);
  let entry;
  if (error || problems.length) entry = { record: null, reset: null, problem: error || problems.join('; '), newer };
  else {
    const reset = JSON.parse(text).reset;
    entry = { record: state.exercises[id] ?? null, reset: typeof reset === 'string' ? reset : null, problem: '', newer };
  }
  if (cache.size > 500) cache.clear();
  cache.set(text, { id, entry });
  return entry;
}

export class ProgressStore {
  notice = ''; // what reading found: records set aside, answers not saved, no storage at all
  writeProblem = ''; // why the last write failed; '' when it was saved
  #storage;
  #key;
  #now;
  #noStorage = '';
  #unsaved = new Map(); // id -> { record } or { reset }: kept in memory, storage refused them
  #pending = new Map(); // id -> the record this tab wrote, until another tab's write holds it
  #cache = new Map();

  constructor(storage, { key = PROGRESS_KEY, now = () => new Date().toISOString() } = {}) {
    this.#storage = storage ?? new MemoryStorage();
    this.#key = key;
    this.#now = now;
  }

  get key() { return this.#key; }
  get prefix() { return `${this.#key}/`; }

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
    for (const [id, change] of this.#unsaved) {
      if (change.reset) delete exercises[id];
      else exercises[id] = joinRecords(exercises[id], change.record);
    }
    this.#say(legacy.error, problems);
    return { format: FORMAT, version: VERSION, exercises };
  }

  get(id) {
    const change = this.#unsaved.get(id);
    if (change?.reset) return null;
    const entry = this.#entry(id);
    let record = entry.record;
    if (!record && !entry.reset) record = this.#legacy([]).state.exercises[id] ?? null;
    return joinRecords(record, change?.record) ?? null;
  }

  record(id, check) {
    const record = recordCheck({ exercises: { [id]: this.get(id) ?? undefined } }, id, check, this.#now()).exercises[id];
    this.writeProblem = this.#save(id, { record });
    this.#pending.set(id, record);
    this.#retryUnsaved(id);
    return record;
  }

  reset(ids) {
    const state = this.read();
    const present = ids.filter((id) => state.exercises[id]);
    const failed = present.map((id) => {
      this.#pending.delete(id);
      return this.#save(id, { reset: this.#now() });
    }).filter(Boolean);
    this.writeProblem = failed[0] ?? '';
    return present.length;
  }

  exportText() {
    return `${JSON.stringify({ ...this.read(), exported: this.#now() }, null, 2)}\n`;
  }

  // Merges a file's text in. Returns { ok, message } and never throws.
  importText(text) {
    return this.#merge(text, { refused: 'The file was refused', done: 'Imported' });
  }

  // The copies of unreadable progress that earlier pages set aside ("KEY.backup", "-2", ...).
  backups() {
    return this.#keys().filter((k) => k.startsWith(`${this.#key}.backup`)).sort();
  }

  // Merges what can be read of a backup back in; the backup itself stays.
  restore(backupKey) {
    let text = null;
    try {
      text = this.backups().includes(backupKey) ? this.#storage.getItem(backupKey) : null;
    } catch { /* reported below as missing */ }
    if (text === null) return { ok: false, message: `There is no backup "${backupKey}".` };
    return this.#merge(text, { refused: `The backup "${backupKey}" cannot be restored`, done: 'Restored' });
  }

  // Another tab changed `key` to `newValue` (a 'storage' event). If that write was made without
  // seeing one of ours (both tabs answered at the same moment), ours is joined in and written
  // again. Returns the exercise ids that may have changed, or null for any of them.
  noteChange(key, newValue) {
    if (key === null) {
      this.#pending.clear();
      return null;
    }
    if (!key.startsWith(this.prefix)) return key.startsWith(this.#key) ? null : [];
    const id = key.slice(this.prefix.length);
    const mine = this.#pending.get(id);
    if (!mine) return [id];
    const theirs = readEntry(newValue, id, this.#cache);
    if (newValue === null || theirs.reset || covers(theirs.record, mine)) this.#pending.delete(id);
    else if (theirs.record) {
      const joined = joinRecords(theirs.record, mine);
      this.#pending.set(id, joined);
      this.writeProblem = this.#save(id, { record: joined });
    }
    return [id];
  }

  #merge(text, words) {
    if (typeof text !== 'string' || text.trim() === '') return { ok: false, message: `${words.refused}: it is empty.` };
    const { state: incoming, error, problems } = parseProgress(text);
    if (error) return { ok: false, message: `${words.refused}: ${error}.` };
    if (!Object.keys(incoming.exercises).length && problems.length) {
      return { ok: false, message: `${words.refused}: ${problems.join('; ')}.` };
    }
    const { state, taken, kept } = mergeProgress(this.read(), incoming);
    const failed = taken.map((id) => this.#save(id, { record: state.exercises[id] })).filter(Boolean);
    this.writeProblem = failed[0] ?? '';
    const solved = taken.filter((id) => state.exercises[id].solved).length;
    let message = `${words.done} ${plural(taken.length, 'exercise')} (${solved} solved).`;
    if (kept.length) message += ` Kept ${plural(kept.length, 'record')} of this browser that ${kept.length === 1 ? 'was' : 'were'} as far along.`;
    if (problems.length) message += ` Skipped ${plural(problems.length, 'record')} that could not be read (${problems.join('; ')}).`;
    if (failed.length) message += ` ${failed[0]}`;
    return { ok: true, message, taken, kept };
  }

  // Writes one exercise's value; returns '' or why it could not be saved (the change is then
  // kept in memory). A value this page cannot read is never written over.
  #save(id, change) {
    const key = this.prefix + id;
    try {
      const text = this.#storage.getItem(key);
      const entry = readEntry(text, id, this.#cache);
      if (entry.newer) {
        throw new Error('a newer Scalebook saved this exercise, and this page leaves that as it is; reload the page to get the newer one');
      }
      if (entry.problem && !this.#backUp(text)) {
        throw new Error(`what is saved for it cannot be read (${entry.problem}) nor copied aside, so it is left as it was`);
      }
      const value = change.reset
        ? { format: FORMAT, version: VERSION, exercises: {}, reset: change.reset }
        : { format: FORMAT, version: VERSION, exercises: { [id]: change.record } };
      if (change.reset && !this.#legacy([]).state.exercises[id]) this.#storage.removeItem(key);
      else this.#storage.setItem(key, JSON.stringify(value));
      this.#unsaved.delete(id);
      return '';
    } catch (err) {
      this.#unsaved.set(id, change);
      const why = isFull(err) ? "this browser's storage for the book is full" : err?.message ?? String(err);
      return `${change.reset ? 'The reset' : 'Your answer'} could not be saved: ${why}. ` +
        'Nothing saved before is lost; this lasts until you leave the page.';
    }
  }

  // Copies unreadable text to "KEY.backup" (or "-2", ...) unless it is there already; returns
  // the key, or '' when it could not be copied.
  #backUp(text) {
    try {
      for (let n = 1; n < 100; n += 1) {
        const key = `${this.#key}.backup${n === 1 ? '' : `-${n}`}`;
        const existing = this.#storage.getItem(key);
        if (existing === text) return key;
        if (existing === null) {
          this.#storage.setItem(key, text);
          return key;
        }
      }
    } catch {
      return '';
    }
    return '';
  }

  // Space may have come free since: try the answers kept in memory again.
  #retryUnsaved(except) {
    for (const [id, change] of [...this.#unsaved]) {
      if (id !== except && !this.#save(id, change)) this.#unsaved.delete(id);
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
    return readEntry(this.#getItem(this.prefix + id), id, this.#cache);
  }

  #entryIds() {
    return this.#keys().filter((k) => k.startsWith(this.prefix)).map((k) => k.slice(this.prefix.length));
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
    if (this.#unsaved.size) {
      lines.push(`${plural(this.#unsaved.size, 'answer')} could not be saved and ${this.#unsaved.size === 1 ? 'lasts' : 'last'} until you leave the page.`);
    }
    this.notice = lines.join(' ');
  }
}
