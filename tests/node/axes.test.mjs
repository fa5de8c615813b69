// core/axes.js: d3-scale's linear and log scales and ticks, and the one SVG drawing of
// gridlines, tick marks and labels every plot uses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linearAxis, logAxis, ticksSVG, frameSVG, plotArea } from '../../web/runtime/core/axes.js';

test('a linear axis maps its domain onto its range in tenths of a pixel, with round ticks', () => {
  const y = linearAxis([0, 99e9], [308, 40]);
  assert.equal(y(0), 308);
  assert.equal(y(99e9), 40);
  assert.equal(y(49.5e9), 174);
  assert.equal(y(1), 308); // rounded to 0.1 px
  assert.deepEqual(y.ticks(5), [0, 20e9, 40e9, 60e9, 80e9]);
  assert.deepEqual(linearAxis([0, 512], [0, 1]).ticks(8), [0, 50, 100, 150, 200, 250, 300, 350, 400, 450, 500]);
});

test('a log axis puts each decade the same distance apart and ticks whole decades', () => {
  const x = logAxis([1e4, 1e10], [100, 700]);
  assert.equal(x(1e4), 100);
  assert.equal(x(1e7), 400);
  assert.equal(x(1e10), 700);
  assert.deepEqual(x.ticks(), [1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10]);
  assert.deepEqual(x.ticks(2), [1e4, 1e6, 1e8, 1e10]);
  assert.deepEqual(logAxis([1e3, 1e6], [0, 1]).ticks(), [1e3, 1e4, 1e5, 1e6]);
  assert.deepEqual(logAxis([1e-2, 1e2], [0, 1]).ticks(), [0.01, 0.1, 1, 10, 100]);
});

test('ticks draw a gridline, an optional mark and a label each; minor labels are marked', () => {
  const x = logAxis([1, 100], [0, 200]);
  const svg = ticksSVG(x, x.ticks(), { side: 'bottom', edge: 50, across: [0, 50], mark: 5, label: (v) => `<${v}>`, minor: (_, i) => i === 1 });
  assert.equal((svg.match(/<g class="tick/g) ?? []).length, 3);
  // The label at the axis's start is anchored there, clear of the other axis's lowest label.
  assert.match(svg, /^<g class="tick"><line class="grid" x1="0" y1="0" x2="0" y2="50" [^>]*\/><line x1="0" y1="50" x2="0" y2="55" [^>]*\/><text x="0" y="68" text-anchor="start" fill="currentColor">&lt;1&gt;<\/text><\/g>/);
  assert.match(svg, /<g class="tick minor"><line class="grid" x1="100"/);
  const y = linearAxis([0, 1], [100, 0]);
  const left = ticksSVG(y, [0, 1], { side: 'left', edge: 40, across: [40, 300], label: String });
  assert.match(left, /<line class="grid" x1="40" y1="100" x2="300" y2="100" [^>]*\/><text x="32" y="104" text-anchor="end" fill="currentColor">0<\/text>/);
  assert.doesNotMatch(left, /x1="35"/); // no marks unless asked
  const area = plotArea(640, 360, { left: 100, right: 32, top: 40, bottom: 52 });
  assert.deepEqual(area, { left: 100, right: 608, top: 40, bottom: 308, w: 508, h: 268 });
  assert.equal(frameSVG(area), '<path class="axis" d="M100,40 V308 H608" fill="none" stroke="currentColor"/>');
});

test("the bundle's number-only d3-interpolate agrees with d3-interpolate on numbers", async () => {
  const real = await import('d3-interpolate');
  const shim = await import('../../web/builder/shims/d3-interpolate.js');
  const pairs = [[0, 1], [308, 40], [-5, 1e12], ['3', '7']];
  for (const [a, b] of pairs) {
    for (const t of [0, 0.25, 0.5, 0.9, 1]) {
      assert.equal(shim.interpolate(a, b)(t), real.interpolate(+a, +b)(t));
      assert.equal(shim.interpolateNumber(a, b)(t), real.interpolateNumber(a, b)(t));
      assert.equal(shim.interpolateRound(a, b)(t), real.interpolateRound(a, b)(t));
    }
  }
  for (const t of [0, 0.1, 0.5, 0.75, 1]) {
    assert.equal(shim.piecewise([0, 10, 30])(t), real.piecewise([0, 10, 30])(t));
    assert.equal(shim.piecewise(shim.interpolateRound, [0, 3, 7])(t), real.piecewise(real.interpolateRound, [0, 3, 7])(t));
  }
});
