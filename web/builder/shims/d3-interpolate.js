// What d3-scale takes from d3-interpolate, for numbers only. The site's scales map numbers to
// pixel positions and never interpolate colours, dates or strings, which d3-interpolate's
// generic `interpolate` would detect with d3-color: 16 kB of code (5 kB brotli) on every page.
// build.mjs resolves 'd3-interpolate' here; axes.test.mjs checks the scales still map right.
export const interpolateNumber = (a, b) => ((a = +a), (b = +b), (t) => a * (1 - t) + b * t);
export const interpolateRound = (a, b) => ((a = +a), (b = +b), (t) => Math.round(a * (1 - t) + b * t));
export const interpolate = interpolateNumber;

export function piecewise(interpolator, values) {
  if (values === undefined) [values, interpolator] = [interpolator, interpolate];
  const n = values.length - 1;
  const parts = Array.from({ length: n }, (_, i) => interpolator(values[i], values[i + 1]));
  return (t) => {
    const i = Math.max(0, Math.min(n - 1, Math.floor((t *= n))));
    return parts[i](t - i);
  };
}
