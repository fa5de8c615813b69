// Reading and grading an exercise answer (pure, so Node tests can pin it).

// Plain decimal or scientific notation: 12, -0.5, .5, 3e-4, 1.2E6.
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
// Commas only as thousands separators: a 1-3 digit lead, then ",ddd" groups.
const GROUPED = /^([+-]?)(\d{1,3}(?:,\d{3})+)((?:\.\d*)?(?:[eE][+-]?\d+)?)$/;

// The number typed, or null if it is not one. Strict: "12abc", "1,0000" and "" are null.
export function parseAnswer(text) {
  let s = String(text ?? '').trim().replace(/\u2212/g, '-');
  const grouped = GROUPED.exec(s);
  if (grouped) s = grouped[1] + grouped[2].replace(/,/g, '') + grouped[3];
  if (!NUMBER.test(s)) return null;
  const x = Number(s);
  return Number.isFinite(x) ? x : null;
}

const within = (answer, expected, relTol) => Math.abs(answer - expected) <= relTol * Math.abs(expected);

// { correct, hint }: the hint names the common slips, a factor of 1000^k (a wrong prefix) or
// the sign; otherwise it is empty.
export function checkAnswer(answer, expected, relTol) {
  if (within(answer, expected, relTol)) return { correct: true, hint: '' };
  if (answer !== 0 && expected !== 0 && Math.sign(answer) === Math.sign(expected)) {
    const k = Math.round(Math.log10(answer / expected) / 3);
    if (k !== 0 && within(answer, expected * 1000 ** k, relTol)) {
      const factor = Math.abs(k) === 1 ? '1000' : `1e${3 * Math.abs(k)}`;
      return { correct: false, hint: `your answer is ${factor}x too ${k > 0 ? 'large' : 'small'}` };
    }
  }
  if (expected !== 0 && within(-answer, expected, relTol)) {
    return { correct: false, hint: 'check the sign' };
  }
  return { correct: false, hint: '' };
}
