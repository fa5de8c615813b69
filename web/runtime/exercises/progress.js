// A reader's progress through the exercises: pure functions over a plain state object. The
// store that keeps it in localStorage is progress-store.js. Nothing here touches the DOM.
//
// The progress format (version 2), as exported, imported and stored:
//   { format: 'scalebook-progress', version: 2,
//     exercises: { ID: { attempts, solved, last_answer, seed, updated, part_ids,
//                        parts: { PART: { attempts, solved, last_answer, seed } } } } }
// `attempts` counts graded checks (an unreadable answer is not an attempt); `solved` is sticky:
// an exercise is solved once every part has been answered correctly, in any variant. `seed` is
// the variant of the last check, so the page can restore the last answer only where it belongs.
// `part_ids` (optional) lists every part of the exercise, so a merge of two records that each
// solved some parts knows when all of them are solved.
// Version 1 was a draft: { version: 1, solved: { ID: true }, answers: { ID: 'text' } }.

import { MAX_SEED } from './variant-hash.js';

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
  if (record.part_ids !== undefined && !(Array.isArray(record.part_ids) &&
    record.part_ids.every((p) => typeof p === 'string'))) return 'part_ids is not a list of part names';
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

// Reads a decoded JSON value into { state, problems }: a version 2 state holding every record
// that can be read, and one line per record that cannot ("exercise ID: why"), so one bad record
// never hides the others. Throws an Error saying what is wrong when nothing can be read.
export function upgradeProgress(data) {
  if (!isObject(data)) throw new Error('it is not a JSON object');
  if (data.format === undefined && data.version === 1) return { state: fromVersion1(data), problems: [] };
  if (data.format !== FORMAT) throw new Error('it is not Scalebook progress (no "format": "scalebook-progress")');
  if (!Number.isInteger(data.version) || data.version < 1) throw new Error('its version is not a whole number');
  if (data.version > VERSION) {
    throw new Error(`it was saved by a newer Scalebook (format version ${data.version}; this page reads up to ${VERSION})`);
  }
  if (data.version === 1) return { state: fromVersion1(data), problems: [] };
  if (!isObject(data.exercises)) throw new Error('"exercises" is not an object');
  const exercises = {};
  const problems = [];
  for (const [id, record] of Object.entries(data.exercises)) {
    const problem = recordProblem(record);
    if (problem) problems.push(`exercise ${id}: ${problem}`);
    else exercises[id] = structuredClone(record);
  }
  return { state: { format: FORMAT, version: VERSION, exercises }, problems };
}

// Text (stored or imported) to { state, error, problems, newer }: `error` when nothing could be
// read, `problems` for the records set aside, `newer` when a later Scalebook wrote it. A null
// text is a fresh start, not an error.
export function parseProgress(text) {
  const none = (error, newer = false) => ({ state: emptyProgress(), error, problems: [], newer });
  if (text === null || text === undefined) return none('');
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    return none('it is not valid JSON');
  }
  try {
    return { ...upgradeProgress(data), error: '', newer: false };
  } catch (err) {
    return none(err.message, isObject(data) && data.format === FORMAT && Number.isInteger(data.version) && data.version > VERSION);
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
  const allParts = check.parts?.length ? check.parts.map(String) : [check.part];
  record.part_ids = allParts;
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

// Two copies of one exercise's record (two tabs answered it at the same moment) joined so that
// nothing either holds is lost: every part from both, each with the larger count and solved
// when either solved it. It is order-free (join(a, b) equals join(b, a)), so two tabs that
// repair each other's writes end with the same record.
export function joinRecords(a, b) {
  if (!a || !b) return structuredClone(a ?? b ?? null);
  const parts = {};
  for (const id of new Set([...Object.keys(a.parts), ...Object.keys(b.parts)])) {
    parts[id] = joinParts(a.parts[id], b.parts[id]);
  }
  const partIds = [...new Set([...(a.part_ids ?? []), ...(b.part_ids ?? [])])].sort();
  const partAttempts = Object.values(parts).reduce((sum, p) => sum + p.attempts, 0);
  const last = later(a, b, (r) => [String(r.updated ?? ''), r.last_answer, r.seed]);
  const record = {
    attempts: Math.max(a.attempts, b.attempts, partAttempts),
    solved: a.solved || b.solved || (partIds.length > 0 && partIds.every((id) => parts[id]?.solved)),
    last_answer: last.last_answer,
    seed: last.seed,
    parts,
    updated: last.updated ?? null,
  };
  if (partIds.length) record.part_ids = partIds;
  return record;
}

function joinParts(a, b) {
  if (!a || !b) return structuredClone(a ?? b);
  const last = later(a, b, (p) => [p.attempts, p.last_answer, p.seed ?? 0]);
  const part = { attempts: Math.max(a.attempts, b.attempts), solved: a.solved || b.solved, last_answer: last.last_answer };
  if (last.seed !== undefined) part.seed = last.seed;
  return part;
}

// The one of a and b whose key (a list of numbers or strings) is larger; a on a tie.
function later(a, b, key) {
  const [ka, kb] = [key(a), key(b)];
  for (let i = 0; i < ka.length; i += 1) {
    if (ka[i] === kb[i]) continue;
    return (typeof ka[i] === 'number' ? ka[i] > kb[i] : String(ka[i]) > String(kb[i])) ? a : b;
  }
  return a;
}

// Sorted keys, so two records with equal contents have equal text.
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

// True when record `a` already holds everything `b` does (joining b in would change nothing).
export function covers(a, b) {
  if (!b) return true;
  if (!a) return false;
  return canonical(joinRecords(a, b)) === canonical(joinRecords(a, a));
}
