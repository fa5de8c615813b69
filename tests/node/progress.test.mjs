// The reader's progress store (web/runtime/progress.js) over an in-memory storage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ProgressStore, MemoryStorage, PROGRESS_KEY, parseProgress, mergeProgress, summarize, emptyProgress,
} from '../../web/runtime/exercises/progress.js';

const NOW = '2025-01-02T03:04:05.000Z';
const storeOver = (storage) => new ProgressStore(storage, { now: () => NOW });
const fresh = () => {
  const storage = new MemoryStorage();
  return { storage, store: storeOver(storage) };
};
const TWO_PARTS = ['a', 'b'];

test('a fresh store is empty, valid and has no notice', () => {
  const { store, storage } = fresh();
  assert.deepEqual(store.read(), { format: 'scalebook-progress', version: 2, exercises: {} });
  assert.equal(store.get('roofline-ex1-h100-time'), null);
  assert.equal(store.notice, '');
  assert.equal(storage.length, 0, 'reading writes nothing');
});

test('checks are counted per part and the exercise is solved once every part is right', () => {
  const { store, storage } = fresh();
  const id = 'roofline-ex1-h100-time';
  store.record(id, { seed: 0, part: 'a', parts: TWO_PARTS, answer: '2 ms', correct: false });
  let record = store.record(id, { seed: 0, part: 'a', parts: TWO_PARTS, answer: '1.01 ms', correct: true });
  assert.equal(record.attempts, 2);
  assert.equal(record.solved, false, 'part b is still open');
  assert.deepEqual(record.parts.a, { attempts: 2, solved: true, last_answer: '1.01 ms', seed: 0 });
  // Part b solved in another variant still completes the exercise.
  record = store.record(id, { seed: 77, part: 'b', parts: TWO_PARTS, answer: '3', correct: true });
  assert.equal(record.solved, true);
  assert.equal(record.seed, 77);
  assert.equal(record.last_answer, '3');
  assert.equal(record.updated, NOW);
  // A later wrong answer does not unsolve it.
  record = store.record(id, { seed: 77, part: 'b', parts: TWO_PARTS, answer: '9', correct: false });
  assert.equal(record.solved, true);
  assert.equal(record.parts.b.solved, true);
  assert.equal(record.parts.b.attempts, 2);
  // It survives a "reload": a new store over the same storage.
  assert.deepEqual(storeOver(storage).get(id), record);
  assert.deepEqual(JSON.parse(storage.getItem(PROGRESS_KEY)).exercises[id], record);
});

test('summaries count solved and attempted exercises of a list', () => {
  const { store } = fresh();
  store.record('x', { seed: 0, part: 'a', answer: '1', correct: true });
  store.record('y', { seed: 0, part: 'a', answer: '2', correct: false });
  assert.deepEqual(summarize(store.read(), ['x', 'y', 'z']), { solved: 1, attempted: 2, total: 3 });
});

test('version 1 progress is migrated and keeps what was solved', () => {
  const storage = new MemoryStorage();
  storage.setItem(PROGRESS_KEY, JSON.stringify({
    version: 1, solved: { 'roofline-ex3-critical-batch': true }, answers: { 'roofline-ex3-critical-batch': '240', other: '5' },
  }));
  const store = storeOver(storage);
  const state = store.read();
  assert.equal(store.notice, '');
  assert.equal(state.version, 2);
  assert.deepEqual(state.exercises['roofline-ex3-critical-batch'],
    { attempts: 1, solved: true, last_answer: '240', seed: 0, parts: {}, updated: null });
  assert.equal(state.exercises.other.solved, false);
  assert.equal(state.exercises.other.attempts, 1);
  // The first check writes version 2 back, still solved.
  store.record('other', { seed: 0, part: 'a', answer: '6', correct: false });
  const saved = JSON.parse(storage.getItem(PROGRESS_KEY));
  assert.equal(saved.version, 2);
  assert.equal(saved.exercises['roofline-ex3-critical-batch'].solved, true);
});

const BAD_VALUES = [
  ['corrupt JSON', '{"format":"scalebook-progress",', /not valid JSON/],
  ['wrong types', JSON.stringify({ format: 'scalebook-progress', version: 2, exercises: { x: { attempts: 'many', solved: true, last_answer: '', seed: 0, parts: {}, updated: null } } }), /exercise x: attempts is not a whole number/],
  ['a foreign format', JSON.stringify({ theme: 'dark' }), /not Scalebook progress/],
  ['an array', '[1,2]', /not a JSON object/],
  ['a future version', JSON.stringify({ format: 'scalebook-progress', version: 3, exercises: {} }), /newer Scalebook \(format version 3/],
];

for (const [what, text, reason] of BAD_VALUES) {
  test(`${what} in storage is ignored with a notice and kept in a backup`, () => {
    const storage = new MemoryStorage();
    storage.setItem(PROGRESS_KEY, text);
    const store = storeOver(storage);
    assert.deepEqual(store.read(), emptyProgress());
    assert.match(store.notice, reason);
    assert.match(store.notice, /A copy is kept in this browser's storage under "scalebook\.progress\.backup"/);
    assert.equal(storage.getItem(`${PROGRESS_KEY}.backup`), text);
    // Reading again does not make a second copy; recording afterwards keeps the backup.
    store.read();
    assert.equal(storage.getItem(`${PROGRESS_KEY}.backup-2`), null);
    store.record('x', { seed: 0, part: 'a', answer: '1', correct: true });
    assert.equal(storage.getItem(`${PROGRESS_KEY}.backup`), text);
    assert.equal(storeOver(storage).get('x').solved, true);
  });
}

test('a second, different bad value gets its own backup key', () => {
  const storage = new MemoryStorage();
  storage.setItem(`${PROGRESS_KEY}.backup`, 'older');
  storage.setItem(PROGRESS_KEY, 'newer garbage');
  const store = storeOver(storage);
  store.read();
  assert.equal(storage.getItem(`${PROGRESS_KEY}.backup`), 'older');
  assert.equal(storage.getItem(`${PROGRESS_KEY}.backup-2`), 'newer garbage');
  assert.match(store.notice, /backup-2/);
});

test('a storage that throws falls back to memory with a notice', () => {
  const broken = {
    getItem() { throw new Error('access denied'); },
    setItem() { throw new Error('access denied'); },
    removeItem() {},
  };
  const store = storeOver(broken);
  assert.deepEqual(store.read(), emptyProgress());
  assert.match(store.notice, /cannot be saved in this browser \(access denied\)/);
  store.record('x', { seed: 0, part: 'a', answer: '1', correct: true });
  assert.equal(store.get('x').solved, true);
});

test('export then import into an empty browser restores the progress', () => {
  const { store } = fresh();
  store.record('x', { seed: 0, part: 'a', answer: '240', correct: true });
  store.record('y', { seed: 5, part: 'a', answer: '3 ms', correct: false });
  const text = store.exportText();
  assert.equal(JSON.parse(text).exported, NOW);
  const other = fresh().store;
  const result = other.importText(text);
  assert.equal(result.ok, true);
  assert.equal(result.message, 'Imported 2 exercises (1 solved).');
  assert.deepEqual(other.read().exercises, store.read().exercises);
});

test('an import of something that is not progress is refused with the reason', () => {
  const { store } = fresh();
  store.record('x', { seed: 0, part: 'a', answer: '1', correct: true });
  const before = store.read();
  const cases = [
    ['', 'The file was refused: it is empty.'],
    ['<html>', 'The file was refused: it is not valid JSON.'],
    ['{"hello": 1}', 'The file was refused: it is not Scalebook progress (no "format": "scalebook-progress").'],
    [JSON.stringify({ format: 'scalebook-progress', version: 2, exercises: { x: { solved: 'yes' } } }),
      'The file was refused: exercise x: attempts is not a whole number.'],
  ];
  for (const [text, message] of cases) {
    assert.deepEqual(store.importText(text), { ok: false, message });
  }
  assert.deepEqual(store.read(), before, 'a refused file changes nothing');
});

test('a merge keeps, per exercise, the record further along', () => {
  const rec = (attempts, solved, updated = NOW) => ({ attempts, solved, last_answer: '', seed: 0, parts: {}, updated });
  const ours = { ...emptyProgress(), exercises: { a: rec(5, false), b: rec(1, true), c: rec(2, false, '2025-01-01') } };
  const theirs = { ...emptyProgress(), exercises: { a: rec(1, true), b: rec(9, false), c: rec(2, false, '2025-02-01'), d: rec(1, false) } };
  const { state, taken, kept } = mergeProgress(ours, theirs);
  assert.deepEqual(taken.sort(), ['a', 'c', 'd']);
  assert.deepEqual(kept, ['b']);
  assert.equal(state.exercises.a.solved, true, 'solved beats more attempts');
  assert.equal(state.exercises.b.solved, true, 'our solved record stays');
  assert.equal(state.exercises.c.updated, '2025-02-01', 'equal otherwise: the later one');
  assert.equal(ours.exercises.a.solved, false, 'the inputs are not changed');
  const { store } = fresh();
  store.importText(JSON.stringify(ours));
  assert.match(store.importText(JSON.stringify(theirs)).message, /^Imported 3 exercises \(1 solved\)\. Kept 1 record of this browser that was as far along\.$/);
});

test('resetting one chapter leaves the others', () => {
  const { store } = fresh();
  for (const id of ['ch1-a', 'ch1-b', 'ch2-a']) store.record(id, { seed: 0, part: 'a', answer: '1', correct: true });
  assert.equal(store.reset(['ch1-a', 'ch1-b', 'ch1-never-tried']), 2);
  assert.deepEqual(Object.keys(store.read().exercises), ['ch2-a']);
});

test('parseProgress treats a missing value as a fresh start', () => {
  assert.deepEqual(parseProgress(null), { state: emptyProgress(), error: '' });
});
