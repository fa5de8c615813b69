// A reader's progress through the exercises: pure functions over a plain state object, plus
// ProgressStore, which keeps that state in a Storage-like object (localStorage in the page, a
// Map-backed stand-in in Node tests). Nothing here touches the DOM.
//
// The stored value (version 2):
//   { format: 'scalebook-progress', version: 2,
//     exercises: { ID: { attempts, solved, last_answer, seed, updated,
//                        parts: { PART: { attempts, solved, last_answer, seed } } } } }
// `attempts` counts graded checks (an unreadable answer is not an attempt); `solved` is sticky:
// an exercise is solved once every part has been answered correctly, in any variant. `seed` is
// the variant of the last check, so the page can restore the last answer only where it belongs.
// Version 1 was a draft: { version: 1, solved: { ID: true }, answers: { ID: 'text' } }.

import { MAX_SEED } from './variant-hash.js';

export const PROGRESS_KEY = 'scalebook.progress';
export const FORMAT = 'scalebook-progress';
export const VERSION = 2;

export function emptyProgress() {
  return { format: FORMAT, version: VERSION, exercises: {} };
}

const isObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
const isCount = (x) => Number.isInteger(x) && x >= 0;
const isSeed = (x) => Number.isInteger(x) && x >= 0 && x <= MAX_SEED;

// Why a part record is unusable, or '' when it is fine.
function partProblem(part) {
  if (!isObject(part)) return 'is not an object';
  if (!isCount(part.attempts)) return 'attempts is not a whole number';
  if (typeof part.solved !== 'boolean') return 'solved is not true or false';
  if (typeof part.last_answer !== 'string') return 'last_answer is not text';
  if (part.seed !== undefined && !isSeed(part.seed)) return 'seed is not a variant number';
  return '';
}

function recordProblem(record) {
  if (!isObject(record)) return 'is not an object';
  if (!isCount(record.attempts)) return 'attempts is not a whole number';
  if (typeof record.solved !== 'boolean') return 'solved is not true or false';
  if (typeof record.last_answer !== 'string') return 'last_answer is not text';
  if (!isSeed(record.seed)) return 'seed is not a variant number';
  if (record.updated !== null && typeof record.updated !== 'string') return 'updated is not a date';
  if (!isObject(record.parts)) return 'parts is not an object';
  for (const [id, part] of Object.entries(record.parts)) {
    const problem = partProblem(part);
    if (problem) return `part ${id} ${problem}`;
  }
  return '';
}

function fromVersion1(data) {
  if (!isObject(data.solved) || !isObject(data.answers ?? {})) {
    throw new Error('version 1 needs "solved" and "answers" objects');
  }
  const exercises = {};
  const answers = data.answers ?? {};
  for (const id of new Set([...Object.keys(data.solved), ...Object.keys(answers)])) {
    const solved = data.solved[id] === true;
    const answer = typeof answers[id] === 'string' ? answers[id] : '';
    // Version 1 kept no counts: a solved or answered exercise had at least one check.
    exercises[id] = {
      attempts: solved || answer ? 1 : 0, solved, last_answer: answer, seed: 0, parts: {}, updated: null,
    };
  }
  return { format: FORMAT, version: VERSION, exercises };
}

// Reads a decoded JSON value into a version 2 state; throws an Error saying what is wrong.
export function upgradeProgress(data) {
  if (!isObject(data)) throw new Error('it is not a JSON object');
  if (data.format === undefined && data.version === 1) return fromVersion1(data);
  if (data.format !== FORMAT) throw new Error('it is not Scalebook progress (no "format": "scalebook-progress")');
  if (!Number.isInteger(data.version) || data.version < 1) throw new Error('its version is not a whole number');
  if (data.version > VERSION) {
    throw new Error(`it was saved by a newer Scalebook (format version ${data.version}; this page reads up to ${VERSION})`);
  }
  if (data.version === 1) return fromVersion1(data);
  if (!isObject(data.exercises)) throw new Error('"exercises" is not an object');
  const exercises = {};
  for (const [id, record] of Object.entries(data.exercises)) {
    const problem = recordProblem(record);
    if (problem) throw new Error(`exercise ${id}: ${problem}`);
    exercises[id] = structuredClone(record);
  }
  return { format: FORMAT, version: VERSION, exercises };
}

// Text (stored or imported) to { state, error }. A null text is a fresh start, not an error.
export function parseProgress(text) {
  if (text === null || text === undefined) return { state: emptyProgress(), error: '' };
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    return { state: emptyProgress(), error: 'it is not valid JSON' };
  }
  try {
    return { state: upgradeProgress(data), error: '' };
  } catch (err) {
    return { state: emptyProgress(), error: err.message };
  }
}

function newRecord() {
  return { attempts: 0, solved: false, last_answer: '', seed: 0, parts: {}, updated: null };
}

// The state after one graded check. `check`: { seed, part (its id), parts (every part id of
// the exercise), answer (the text), correct }. Returns a new state; the input is not changed.
export function recordCheck(state, id, check, now = new Date().toISOString()) {
  const next = structuredClone(state);
  const record = next.exercises[id] ?? newRecord();
  const part = record.parts[check.part] ?? { attempts: 0, solved: false, last_answer: '', seed: 0 };
  part.attempts += 1;
  part.solved = part.solved || Boolean(check.correct);
  part.last_answer = String(check.answer ?? '');
  part.seed = check.seed;
  record.parts[check.part] = part;
  record.attempts += 1;
  record.last_answer = part.last_answer;
  record.seed = check.seed;
  record.updated = now;
  const allParts = check.parts?.length ? check.parts : [check.part];
  record.solved = record.solved || allParts.every((p) => record.parts[p]?.solved);
  next.exercises[id] = record;
  return next;
}

export function exerciseStatus(record) {
  if (record?.solved) return 'solved';
  if (record?.attempts > 0) return 'attempted';
  return 'new';
}

// Positive when record a is further along than b: solved beats attempted beats nothing, then
// more attempts, then the later update.
export function compareRecords(a, b) {
  const rank = { new: 0, attempted: 1, solved: 2 };
  const byStatus = rank[exerciseStatus(a)] - rank[exerciseStatus(b)];
  if (byStatus !== 0) return byStatus;
  const byAttempts = (a?.attempts ?? 0) - (b?.attempts ?? 0);
  if (byAttempts !== 0) return byAttempts;
  return String(a?.updated ?? '').localeCompare(String(b?.updated ?? ''));
}

// Merges `incoming` into `state`, keeping per exercise the record further along.
// Returns { state, taken: [ids from incoming], kept: [ids where ours was as far or further] }.
export function mergeProgress(state, incoming) {
  const next = structuredClone(state);
  const taken = [];
  const kept = [];
  for (const [id, record] of Object.entries(incoming.exercises)) {
    if (compareRecords(record, next.exercises[id]) > 0) {
      next.exercises[id] = structuredClone(record);
      taken.push(id);
    } else {
      kept.push(id);
    }
  }
  return { state: next, taken, kept };
}

export function resetExercises(state, ids) {
  const next = structuredClone(state);
  for (const id of ids) delete next.exercises[id];
  return next;
}

// Counts over the exercises `ids`: { solved, attempted (any check, solved ones included), total }.
export function summarize(state, ids) {
  let solved = 0;
  let attempted = 0;
  for (const id of ids) {
    const status = exerciseStatus(state.exercises[id]);
    if (status === 'solved') solved += 1;
    if (status !== 'new') attempted += 1;
  }
  return { solved, attempted, total: ids.length };
}

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

// Progress kept in a Storage under one key. Every read goes back to the storage, so several
// elements (and tabs) on one store always agree. A stored value that cannot be read is copied
// to a backup key before anything could overwrite it, and `notice` says so.
export class ProgressStore {
  notice = '';
  #storage;
  #key;
  #now;

  constructor(storage, { key = PROGRESS_KEY, now = () => new Date().toISOString() } = {}) {
    this.#storage = storage ?? new MemoryStorage();
    this.#key = key;
    this.#now = now;
  }

  get key() { return this.#key; }

  read() {
    let text = null;
    try {
      text = this.#storage.getItem(this.#key);
    } catch (err) {
      this.#fallBack(err);
    }
    const { state, error } = parseProgress(text);
    if (error) {
      const backup = this.#backUp(text);
      this.notice = `Your saved progress could not be read (${error}), so it is not used. ` +
        (backup ? `A copy is kept in this browser's storage under "${backup}".` : 'It could not be copied.');
    }
    return state;
  }

  get(id) {
    return this.read().exercises[id] ?? null;
  }

  record(id, check) {
    const state = recordCheck(this.read(), id, check, this.#now());
    this.#write(state);
    return state.exercises[id];
  }

  reset(ids) {
    const state = this.read();
    const present = ids.filter((id) => state.exercises[id]);
    this.#write(resetExercises(state, ids));
    return present.length;
  }

  exportText() {
    return `${JSON.stringify({ ...this.read(), exported: this.#now() }, null, 2)}\n`;
  }

  // Merges a file's text in. Returns { ok, message } and never throws.
  importText(text) {
    if (typeof text !== 'string' || text.trim() === '') {
      return { ok: false, message: 'The file was refused: it is empty.' };
    }
    const { state: incoming, error } = parseProgress(text);
    if (error) return { ok: false, message: `The file was refused: ${error}.` };
    const { state, taken, kept } = mergeProgress(this.read(), incoming);
    this.#write(state);
    const solved = taken.filter((id) => state.exercises[id].solved).length;
    let message = `Imported ${plural(taken.length, 'exercise')} (${solved} solved).`;
    if (kept.length) message += ` Kept ${plural(kept.length, 'record')} of this browser that ${kept.length === 1 ? 'was' : 'were'} as far along.`;
    return { ok: true, message, taken, kept };
  }

  #write(state) {
    try {
      this.#storage.setItem(this.#key, JSON.stringify(state));
    } catch (err) {
      this.#fallBack(err);
      this.#storage.setItem(this.#key, JSON.stringify(state));
    }
  }

  // Storage that throws (disabled, full, private mode): keep going in memory and say so.
  #fallBack(err) {
    this.#storage = new MemoryStorage();
    this.notice = `Progress cannot be saved in this browser (${err?.message ?? err}); it lasts until you leave the page.`;
  }

  // The unreadable text goes to `KEY.backup` (or `.backup-2`, ...) unless already there.
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
}
