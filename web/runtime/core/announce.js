// What a screen reader hears when a widget's numbers change. A result is announced politely
// (after what the reader is hearing) and only once typing pauses, so "2", "2e", "2e1", "2e12"
// give one announcement of the last result, not four; an error is shown beside its field at
// once but spoken only when the reader commits the field (change: Enter or leaving it), never
// at "2e" on the way to "2e12". The region is visually hidden and lives in the shadow root.

const PAUSE_MS = 800;

export class Announcer {
  #root;
  #timer = 0;

  constructor(root) {
    this.#root = root;
  }

  #region() {
    let region = this.#root.querySelector('[data-announce]');
    if (!region) {
      region = document.createElement('p');
      region.className = 'visually-hidden';
      region.dataset.announce = '';
      region.setAttribute('role', 'status');
      region.setAttribute('aria-live', 'polite');
      this.#root.append(region);
    }
    return region;
  }

  // Says `text` once nothing else has been asked for PAUSE_MS (`delay`).
  say(text, delay = PAUSE_MS) {
    this.#region(); // there before it speaks: a region created with its text is often not read
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => { this.#region().textContent = text; }, delay);
  }

  // Drops what was waiting to be said (the reader typed on).
  cancel() {
    clearTimeout(this.#timer);
  }
}
