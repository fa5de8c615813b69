// The playback controls every simulation draws (play, back, step, reset, a scrub range and a
// speed choice), written once for the build and the browser; <sb-simulation> (sb-simulation.js)
// wires them. A simulation names its frame (cycle, step, event) and its speeds.
import { escapeHTML } from './escape.js';

// last: the scrub's last index; index: the frame shown; valuetext: the scrub's spoken value
// (null leaves it out); enabled: a run is there to play. words: { frame ('Cycle'), back,
// forward and reset (the buttons' accessible names), rate ('cycles/s') }; speeds and speed:
// the choices, frames per second, and the one selected.
export function simControlsHTML({ last, index, valuetext = null, enabled, words, speeds, speed }) {
  const disabled = enabled ? '' : ' disabled';
  const options = speeds.map((v) => `<option value="${v}"${v === speed ? ' selected' : ''}>${v} ${words.rate}</option>`);
  const spoken = valuetext === null ? '' : ` aria-valuetext="${escapeHTML(valuetext)}"`;
  return `<div class="sim-controls" role="group" aria-label="Playback">` +
    `<button type="button" data-action="play" aria-pressed="false"${disabled}>Play</button>` +
    `<button type="button" data-action="back" aria-label="${words.back}"${disabled}>◀ Back</button>` +
    `<button type="button" data-action="step" aria-label="${words.forward}"${disabled}>Step ▶</button>` +
    `<button type="button" data-action="reset" aria-label="${words.reset}"${disabled}>Reset</button>` +
    `<label class="scrub">${words.frame} <input type="range" data-action="scrub" min="0" max="${last}" value="${index}" ` +
    `step="1"${spoken}${disabled}></label>` +
    `<label class="speed">Speed <select data-action="speed">${options.join('')}</select></label></div>`;
}
