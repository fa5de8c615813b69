// ProgressStore keeps the reader's progress (progress.js): what ProgressReader
// (progress-reader.js) reads, and the writes: a check recorded, a chapter reset, a file
// imported, a backup restored. A page loads it when the reader first answers or changes their
// progress (page-progress.js). Nothing here touches the DOM.
//
// One key per exercise means two tabs answering different exercises never write the same value,
// and one bad value hides nothing else. The single key "scalebook.progress" of earlier pages is
// never written again.
//
// Nothing stored that this page cannot read is lost: a bad record is set aside (named in
// `notice` and left as it was, or copied to a backup key first if that exercise is answered
// again); a value from a newer Scalebook is never touched. When a write fails (storage full),
// what was stored stays, the answer is kept in memory, and `writeProblem` says so, for the
// exercise being answered to show. The progress box can restore any backup.
import { FORMAT, VERSION, parseProgress, recordCheck, mergeProgress, joinRecords, covers } from './progress.js';
import { ProgressReader, plural } from './progress-reader.js';

export { MemoryStorage, PROGRESS_KEY } from './progress-reader.js';

const isFull = (err) => err?.name === 'QuotaExceededError' || err?.code === 22;

export class ProgressStore extends ProgressReader {
  writeProblem = ''; // why the last write failed; '' when it was saved
  #unsaved = new Map(); // id -> { record } or { reset }: kept in memory, storage refused them
  #pending = new Map(); // id -> the record this tab wrote, until another tab's write holds it

  // What is stored, with the changes kept in memory joined in.
  read() {
    const state = super.read();
    for (const [id, change] of this.#unsaved) {
      if (change.reset) delete state.exercises[id];
      else state.exercises[id] = joinRecords(state.exercises[id], change.record);
    }
    if (this.#unsaved.size) {
      const line = `${plural(this.#unsaved.size, 'answer')} could not be saved and ${this.#unsaved.size === 1 ? 'lasts' : 'last'} until you leave the page.`;
      this.notice = this.notice ? `${this.notice} ${line}` : line;
    }
    return state;
  }

  get(id) {
    const change = this.#unsaved.get(id);
    if (change?.reset) return null;
    return joinRecords(super.get(id), change?.record) ?? null;
  }

  record(id, check) {
    const record = recordCheck({ exercises: { [id]: this.get(id) ?? undefined } }, id, check, this.now()).exercises[id];
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
      return this.#save(id, { reset: this.now() });
    }).filter(Boolean);
    this.writeProblem = failed[0] ?? '';
    return present.length;
  }

  // Merges a file's text in. Returns { ok, message } and never throws.
  importText(text) {
    return this.#merge(text, { refused: 'The file was refused', done: 'Imported' });
  }

  // Merges what can be read of a backup back in; the backup itself stays.
  restore(backupKey) {
    let text = null;
    try {
      text = this.backups().includes(backupKey) ? this.storage.getItem(backupKey) : null;
    } catch { /* reported below as missing */ }
    if (text === null) return { ok: false, message: `There is no backup "${backupKey}".` };
    return this.#merge(text, { refused: `The backup "${backupKey}" cannot be restored`, done: 'Restored' });
  }

  // Another tab changed `key` to `newValue` (a 'storage' event). If that write was made without
  // seeing one of ours (both tabs answered at the same moment), ours is joined in and written
  // again. Returns the exercise ids that may have changed, or null for any of them.
  noteChange(key, newValue) {
    const ids = super.noteChange(key);
    if (key === null) this.#pending.clear();
    if (!ids?.length) return ids;
    const [id] = ids;
    const mine = this.#pending.get(id);
    if (!mine) return ids;
    const theirs = this.entryOf(newValue, id);
    if (newValue === null || theirs.reset || covers(theirs.record, mine)) this.#pending.delete(id);
    else if (theirs.record) {
      const joined = joinRecords(theirs.record, mine);
      this.#pending.set(id, joined);
      this.writeProblem = this.#save(id, { record: joined });
    }
    return ids;
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
    const storage = this.storage;
    try {
      const text = storage.getItem(key);
      const entry = this.entryOf(text, id);
      if (entry.newer) {
        throw new Error('a newer Scalebook saved this exercise, and this page leaves that as it is; reload the page to get the newer one');
      }
      if (entry.problem && !this.#backUp(text)) {
        throw new Error(`what is saved for it cannot be read (${entry.problem}) nor copied aside, so it is left as it was`);
      }
      const value = change.reset
        ? { format: FORMAT, version: VERSION, exercises: {}, reset: change.reset }
        : { format: FORMAT, version: VERSION, exercises: { [id]: change.record } };
      if (change.reset && !this.legacyRecord(id)) storage.removeItem(key);
      else storage.setItem(key, JSON.stringify(value));
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
        const key = `${this.key}.backup${n === 1 ? '' : `-${n}`}`;
        const existing = this.storage.getItem(key);
        if (existing === text) return key;
        if (existing === null) {
          this.storage.setItem(key, text);
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
}
