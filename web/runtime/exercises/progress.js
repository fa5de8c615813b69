// A reader's progress through the exercises: pure functions over a plain state object. What
// reads it (the format, its checks, its counts) is progress-format.js, re-exported here; this
// file adds what changes it: a check recorded, two states merged or joined. The store that keeps
// it in localStorage is progress-store.js. Nothing here touches the DOM.
import { exerciseStatus } from './progress-format.js';

export { FORMAT, VERSION, emptyProgress, upgradeProgress, parseProgress, exerciseStatus, summarize } from './progress-format.js';

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
  if (value !== null && typeof value === 'object') {
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
