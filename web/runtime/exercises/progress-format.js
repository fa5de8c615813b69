// A reader's progress through the exercises, as read: the format, its checks and its counts.
// Pure functions over a plain state object; what records a check or merges two states is
// progress.js, which a page loads only once the reader answers (page-progress.js). Nothing here
// touches the DOM.
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

// The counts the progress box shows, in a file of their own: the box draws them without this one
// while nothing is saved.
export { exerciseStatus, summarize } from './progress-counts.js';
