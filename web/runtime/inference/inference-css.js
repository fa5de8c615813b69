// The inference elements' additions to the calculator sheet: the speculative estimator's plot
// and its draft-and-verify strip (played in once a round, unless the reader asks for less
// motion), and the allocator's HBM bars. Delays come from nth-child custom properties: a page's
// strict CSP allows no style attribute.
import { registerSheets } from '../core/sheets.js';
export const INFERENCE_CSS = `
.inference-extras { border: 1px solid var(--_border); border-top: 0; border-radius: 0 0 var(--_radius) var(--_radius);
  padding: 0 0.75rem 0.75rem; margin-top: calc(-1 * var(--_radius)); }
.inference-extras .plot svg { width: 100%; height: auto; max-width: 40rem; font-size: 14px; display: block; }
.inference-extras .note, .inference-extras .summary { margin: 0.25rem 0 0.5rem; }
.inference-extras .small, .inference-extras .mark-label { font-size: 12px; }
.inference-extras .pt { fill: var(--_accent); }
.inference-extras .pt.chosen { fill: var(--_bg, #fff); stroke: var(--_accent); stroke-width: 3; }
.inference-extras .pt.best { fill: var(--_compute); }
.inference-extras .strip { list-style: none; padding: 0; margin: 0.5rem 0; display: grid; gap: 0.3rem; }
.inference-extras .round { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem; }
.inference-extras .round .label { width: 1.5rem; color: var(--_muted); font-variant-numeric: tabular-nums; }
.inference-extras .tok, .inference-extras .more, .inference-extras .yield { min-width: 1.9rem; padding: 0.15rem 0.3rem; border-radius: 4px;
  text-align: center; font-weight: 700; border: 1px solid var(--_border); }
.inference-extras .tok.ok { background: color-mix(in srgb, var(--_compute) 30%, transparent); }
.inference-extras .tok.no { background: color-mix(in srgb, var(--_comm) 30%, transparent); }
.inference-extras .tok.skip { color: var(--_muted); border-style: dashed; }
.inference-extras .tok.target { background: color-mix(in srgb, var(--_accent) 30%, transparent); font-weight: 600; }
.inference-extras .more { border: 0; color: var(--_muted); font-weight: 400; }
.inference-extras .yield { border: 0; margin-left: auto; font-variant-numeric: tabular-nums; }
.inference-extras .yield::before { content: "= "; color: var(--_muted); font-weight: 400; }
.inference-extras .round:nth-child(2) { --_r: 1; } .inference-extras .round:nth-child(3) { --_r: 2; }
.inference-extras .round:nth-child(4) { --_r: 3; } .inference-extras .round:nth-child(5) { --_r: 4; }
.inference-extras .round > :nth-child(3) { --_t: 1; } .inference-extras .round > :nth-child(4) { --_t: 2; }
.inference-extras .round > :nth-child(5) { --_t: 3; } .inference-extras .round > :nth-child(6) { --_t: 4; }
.inference-extras .round > :nth-child(7) { --_t: 5; } .inference-extras .round > :nth-child(8) { --_t: 6; }
.inference-extras .round > :nth-child(n+9) { --_t: 7; }
.inference-extras .round > .tok, .inference-extras .round > .yield {
  animation: sb-drafted 0.25s ease-out both; animation-delay: calc(var(--_r, 0) * 0.9s + var(--_t, 0) * 0.1s); }
@keyframes sb-drafted { from { opacity: 0; transform: translateY(-0.4rem); } to { opacity: 1; transform: none; } }
@media (prefers-reduced-motion: reduce) { .inference-extras .round > * { animation: none; } }
.inference-extras .part.weights { fill: var(--_muted); }
.inference-extras .part.used { fill: var(--_compute); }
.inference-extras .part.waste { fill: var(--_comm); }
.inference-extras .part.free { fill: transparent; }
.inference-extras .memory-bars { list-style: none; padding: 0; margin: 0.5rem 0; display: grid; gap: 0.6rem; }
.inference-extras .memory-bars .caption { font-weight: 600; display: block; margin-bottom: 0.2rem; }
.inference-extras .memory-bars svg { width: 100%; height: 1.9rem; display: block; }
.inference-extras .legend { list-style: none; display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; padding: 0; margin: 0.25rem 0 0.5rem; }
.inference-extras .legend li { display: flex; align-items: center; gap: 0.4rem; }
.inference-extras .swatch { width: 0.9rem; height: 0.9rem; }
.inference-extras .swatch .part.free { fill: none; stroke: currentColor; }
@container (max-width: 30rem) { .inference-extras .plot svg { font-size: 28px; } .inference-extras .small, .inference-extras .mark-label { font-size: 24px; } }
`;

// Its sheets join the table adoptSheets() reads once an element that uses them is loaded.
registerSheets({ inference: INFERENCE_CSS }, { 'sb-speculative': ['shadow', 'inference'], 'sb-kv-allocator': ['shadow', 'inference'] });
