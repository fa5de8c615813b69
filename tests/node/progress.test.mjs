// The reader's progress (web/runtime/exercises/progress.js) and its store
// (progress-store.js) over an in-memory storage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseProgress, mergeProgress, summarize, emptyProgress } from '../../web/runtime/exercises/progress.js';
import { ProgressStore, MemoryStorage, PROGRESS_KEY } from '../../web/runtime/exercises/progress-store.js';
import { ProgressReader } from '../../web/runtime/exercises/progress-reader.js';

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
  assert.deepEqual(JSON.parse(storage.getItem(`${PROGRESS_KEY}/${id}`)).exercises[id], record);
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
  // A check saves version 2 beside it; the old value is read, never rewritten.
  const before = storage.getItem(PROGRESS_KEY);
  store.record('other', { seed: 0, part: 'a', answer: '6', correct: false });
  assert.equal(storage.getItem(PROGRESS_KEY), before);
  const reloaded = storeOver(storage).read().exercises;
  assert.equal(reloaded['roofline-ex3-critical-batch'].solved, true);
  assert.equal(reloaded.other.attempts, 2);
});

const BAD_VALUES = [
  ['corrupt JSON', '{"format":"scalebook-progress",', /not valid JSON/],
  ['wrong types', JSON.stringify({ format: 'scalebook-progress', version: 2, exercises: { x: { attempts: 'many', solved: true, last_answer: '', seed: 0, parts: {}, updated: null } } }), /exercise x: attempts is not a whole number/],
  ['a foreign format', JSON.stringify({ theme: 'dark' }), /not Scalebook progress/],
  ['an array', '[1,2]', /not a JSON object/],
  ['a future version', JSON.stringify({ format: 'scalebook-progress', version: 3, exercises: {} }), /newer Scalebook \(format version 3/],
];

for (const [what, text, reason] of BAD_VALUES) {
  test(`${what} in storage is not used, is named in the notice and is never written over`, () => {
    const storage = new MemoryStorage();
    storage.setItem(PROGRESS_KEY, text);
    const store = storeOver(storage);
    assert.deepEqual(store.read(), emptyProgress());
    assert.match(store.notice, reason);
    store.record('x', { seed: 0, part: 'a', answer: '1', correct: true });
    store.reset(['x']);
    store.record('x', { seed: 0, part: 'a', answer: '1', correct: true });
    assert.equal(storage.getItem(PROGRESS_KEY), text, 'the stored text is exactly as it was');
    assert.equal(storeOver(storage).get('x').solved, true, 'new answers are still saved');
    assert.equal(store.writeProblem, '');
  });
}

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
  assert.deepEqual(parseProgress(null), { state: emptyProgress(), error: '', problems: [], newer: false });
});

// Saved progress is never lost.
const FORMAT_2 = { format: 'scalebook-progress', version: 2 };
const rec = (solved, answer = '1') => ({ attempts: 1, solved, last_answer: answer, seed: 0, parts: {}, updated: null });
const snapshot = (storage) => new Map(Array.from({ length: storage.length }, (_, i) => storage.key(i))
  .map((k) => [k, storage.getItem(k)]));

test('one bad record in the stored progress hides none of the others, and its text is never rewritten', () => {
  const storage = new MemoryStorage();
  const text = JSON.stringify({ ...FORMAT_2, exercises: { a: rec(true), bad: { ...rec(true), attempts: -1 }, c: rec(false) } });
  storage.setItem(PROGRESS_KEY, text);
  const store = storeOver(storage);
  assert.deepEqual(Object.keys(store.read().exercises), ['a', 'c']);
  assert.equal(store.notice, '1 saved record could not be read and is set aside, left as it was ' +
    '(exercise bad: attempts is not a whole number); the rest is used.');
  store.record('d', { seed: 0, part: 'a', answer: '4', correct: true });
  store.record('a', { seed: 0, part: 'a', answer: '2', correct: false });
  store.reset(['c']);
  assert.equal(storage.getItem(PROGRESS_KEY), text);
  const after = storeOver(storage).read().exercises;
  assert.deepEqual(Object.keys(after).sort(), ['a', 'd']);
  assert.equal(after.a.solved, true);
  assert.equal(after.a.attempts, 2);
});

// A page reads with ProgressReader until a first write (page-progress.js): it must see what the
// store sees, and write nothing.
test('the reader a page starts with reads what the store wrote, says the same, and writes nothing', () => {
  const storage = new MemoryStorage();
  storage.setItem(PROGRESS_KEY, JSON.stringify({ ...FORMAT_2, exercises: { old: rec(true, '7'), bad: { solved: 1 } } }));
  storage.setItem(`${PROGRESS_KEY}/x`, '{"format":"scalebook-progress"');
  const store = storeOver(storage);
  store.record('a', { seed: 5, part: 'p', parts: ['p'], answer: '3', correct: true });
  store.reset(['old']);
  const stored = snapshot(storage);
  const reader = new ProgressReader(storage, { now: () => NOW });
  assert.deepEqual(reader.read(), store.read());
  assert.equal(reader.notice, store.notice);
  assert.match(reader.notice, /^2 saved records could not be read .*exercise bad: attempts is not a whole number; exercise x: it is not valid JSON/);
  assert.deepEqual(reader.get('a'), store.get('a'));
  assert.equal(reader.get('a').parts.p.seed, 5);
  assert.equal(reader.get('old'), null, 'the reset hides the record under the single key of earlier pages');
  assert.equal(reader.exportText(), store.exportText());
  assert.deepEqual(reader.noteChange(`${PROGRESS_KEY}/a`, null), ['a']);
  assert.equal(reader.noteChange(null, null), null);
  assert.deepEqual(reader.noteChange('other', null), []);
  assert.deepEqual(snapshot(storage), stored);
});

test("an exercise saved by a newer Scalebook is left untouched and the answer is kept in memory", () => {
  const storage = new MemoryStorage();
  const newer = JSON.stringify({ format: 'scalebook-progress', version: 3, exercises: { x: { stars: 3 } } });
  storage.setItem(`${PROGRESS_KEY}/x`, newer);
  const store = storeOver(storage);
  assert.match(store.read() && store.notice, /exercise x: it was saved by a newer Scalebook \(format version 3/);
  const record = store.record('x', { seed: 0, part: 'a', answer: '5', correct: true });
  assert.equal(record.solved, true);
  assert.match(store.writeProblem, /^Your answer could not be saved: a newer Scalebook saved this exercise/);
  assert.equal(store.get('x').last_answer, '5');
  store.reset(['x']);
  assert.equal(storage.getItem(`${PROGRESS_KEY}/x`), newer);
  assert.equal(storage.getItem(`${PROGRESS_KEY}.backup`), null, 'nothing to copy: it was never at risk');
});

test("an unreadable value of one exercise is copied to a backup before that exercise is saved again", () => {
  const storage = new MemoryStorage();
  storage.setItem(`${PROGRESS_KEY}/x`, '{"format":"scalebook-progress"');
  storage.setItem(`${PROGRESS_KEY}/y`, JSON.stringify({ ...FORMAT_2, exercises: { y: rec(true) } }));
  const store = storeOver(storage);
  assert.deepEqual(Object.keys(store.read().exercises), ['y']);
  assert.match(store.notice, /exercise x: it is not valid JSON/);
  store.record('x', { seed: 0, part: 'a', answer: '5', correct: true });
  assert.equal(store.writeProblem, '');
  assert.equal(storage.getItem(`${PROGRESS_KEY}.backup`), '{"format":"scalebook-progress"');
  assert.deepEqual(store.backups(), [`${PROGRESS_KEY}.backup`]);
  assert.equal(storeOver(storage).get('x').solved, true);
});

class FullStorage extends MemoryStorage {
  full = false;
  setItem(key, value) {
    if (this.full) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    super.setItem(key, value);
  }
}

test('when storage is full nothing stored is destroyed, and the answer is kept with a warning', () => {
  const storage = new FullStorage();
  storage.setItem(PROGRESS_KEY, JSON.stringify({ ...FORMAT_2, exercises: { old: rec(true) } }));
  const store = storeOver(storage);
  store.record('a', { seed: 0, part: 'a', answer: '1', correct: true });
  storage.full = true;
  const stored = snapshot(storage);
  const record = store.record('b', { seed: 0, part: 'a', answer: '2', correct: false });
  assert.equal(record.attempts, 1);
  assert.equal(store.writeProblem, "Your answer could not be saved: this browser's storage for the book is full. " +
    'Nothing saved before is lost; this lasts until you leave the page.');
  assert.deepEqual(Object.keys(store.read().exercises).sort(), ['a', 'b', 'old']);
  assert.match(store.notice, /1 answer could not be saved and lasts until you leave the page/);
  store.record('b', { seed: 0, part: 'a', answer: '3', correct: true });
  assert.equal(store.get('b').attempts, 2, 'answers kept in memory add up');
  assert.deepEqual(snapshot(storage), stored);
  // Once there is room again, the next answer saves the ones kept in memory too.
  storage.full = false;
  store.record('c', { seed: 0, part: 'a', answer: '4', correct: true });
  assert.equal(store.writeProblem, '');
  const reloaded = storeOver(storage).read().exercises;
  assert.deepEqual(Object.keys(reloaded).sort(), ['a', 'b', 'c', 'old']);
  assert.equal(reloaded.b.solved, true);
});

// Two tabs of one origin as Chromium keeps them: each reads its own copy of the storage, and
// the other tab's writes reach it (with a 'storage' event) only when delivered, so both can
// write at the same moment without seeing each other.
function origin() {
  const truth = new Map();
  const queue = [];
  const tabs = [];
  const tab = () => {
    const copy = new Map(truth);
    const storage = {
      getItem: (k) => (copy.has(k) ? copy.get(k) : null),
      setItem(k, v) { copy.set(k, String(v)); truth.set(k, String(v)); queue.push([storage, k, String(v)]); },
      removeItem(k) { copy.delete(k); truth.delete(k); queue.push([storage, k, null]); },
      get length() { return copy.size; },
      key: (i) => [...copy.keys()][i] ?? null,
    };
    const store = storeOver(storage);
    tabs.push({ storage, copy, store });
    return store;
  };
  const deliver = () => {
    for (let n = 0; queue.length; n += 1) {
      assert.ok(n < 10000, 'the tabs keep rewriting each other');
      const [from, key, value] = queue.shift();
      for (const t of tabs.filter((other) => other.storage !== from)) {
        if (value === null) t.copy.delete(key);
        else t.copy.set(key, value);
        t.store.noteChange?.(key, value);
      }
    }
  };
  return { tab, deliver };
}

test('two tabs answering at the same moment lose nothing, and a reset in one is not undone by the other', () => {
  const { tab, deliver } = origin();
  const [one, two] = [tab(), tab()];
  const both = ['a', 'b'];
  for (let i = 0; i < 30; i += 1) {
    // The same exercises, a part each, and exercises of their own.
    one.record(`shared-${i}`, { seed: 0, part: 'a', parts: both, answer: `a${i}`, correct: true });
    two.record(`shared-${i}`, { seed: 0, part: 'b', parts: both, answer: `b${i}`, correct: true });
    one.record(`one-${i}`, { seed: 0, part: 'a', answer: `${i}`, correct: false });
    two.record(`two-${i}`, { seed: 0, part: 'a', answer: `${i}`, correct: false });
  }
  deliver();
  const later = tab().read().exercises;
  assert.equal(Object.keys(later).length, 90);
  for (let i = 0; i < 30; i += 1) {
    const shared = later[`shared-${i}`];
    assert.deepEqual([shared.parts.a?.last_answer, shared.parts.b?.last_answer], [`a${i}`, `b${i}`], `shared-${i}`);
    assert.equal(shared.solved, true, `shared-${i}: each tab solved one of its two parts`);
    assert.equal(shared.attempts, 2);
    assert.equal(later[`one-${i}`].last_answer, `${i}`);
    assert.equal(later[`two-${i}`].last_answer, `${i}`);
  }
  assert.equal(two.reset(Array.from({ length: 10 }, (_, i) => `shared-${i}`)), 10);
  deliver();
  const afterReset = tab().read().exercises;
  assert.equal(Object.keys(afterReset).length, 80);
  assert.equal(afterReset['shared-3'], undefined);
  assert.deepEqual(Object.keys(one.read().exercises).sort(), Object.keys(afterReset).sort());
});

test('a backup set aside by an earlier page can be restored, keeping what it holds that can be read', () => {
  const storage = new MemoryStorage();
  const backup = JSON.stringify({ ...FORMAT_2, exercises: { p: rec(true), q: rec(false), z: { ...rec(true), solved: 'yes' } } });
  storage.setItem(`${PROGRESS_KEY}.backup`, backup);
  storage.setItem(`${PROGRESS_KEY}.backup-2`, '{"format":"scalebook-progress","version":9}');
  const store = storeOver(storage);
  assert.deepEqual(store.backups(), [`${PROGRESS_KEY}.backup`, `${PROGRESS_KEY}.backup-2`]);
  assert.deepEqual(store.restore(`${PROGRESS_KEY}.backup`).message,
    'Restored 2 exercises (1 solved). Skipped 1 record that could not be read (exercise z: solved is not true or false).');
  assert.deepEqual(Object.keys(storeOver(storage).read().exercises).sort(), ['p', 'q']);
  assert.equal(storage.getItem(`${PROGRESS_KEY}.backup`), backup, 'the backup stays');
  assert.deepEqual(store.restore(`${PROGRESS_KEY}.backup-2`), { ok: false, message:
    `The backup "${PROGRESS_KEY}.backup-2" cannot be restored: it was saved by a newer Scalebook (format version 9; this page reads up to 2).` });
  assert.deepEqual(store.restore('theme'), { ok: false, message: 'There is no backup "theme".' });
});

test('an imported file with one bad record brings in the others', () => {
  const { store } = fresh();
  const file = JSON.stringify({ ...FORMAT_2, exercises: { p: rec(true), z: { attempts: 1 } } });
  assert.equal(store.importText(file).message,
    'Imported 1 exercise (1 solved). Skipped 1 record that could not be read (exercise z: solved is not true or false).');
  assert.equal(store.get('p').solved, true);
});
