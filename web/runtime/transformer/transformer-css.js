// The layer diagram's CSS.
import { registerSheets } from '../core/sheets.js';

// <sb-transformer>: the layer picture, its detail, the totals and the attention-share plot.
// Groups: attention projections (accent), dot products (memory colour), MLP (compute colour).
export const TRANSFORMER_CSS = `
.sb-transformer { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.75rem; }
.sb-transformer .fields { grid-template-columns: repeat(auto-fill, minmax(min(100%, 7.5rem), 1fr)); gap: 0.5rem 0.7rem; }
.sb-transformer .fields.shape { margin-top: 0.5rem; grid-template-columns: repeat(auto-fill, minmax(min(100%, 5.5rem), 1fr)); }
.sb-transformer .field.wide { grid-column: span 2; }
@container (max-width: 24rem) { .sb-transformer .field.wide { grid-column: 1 / -1; } .sb-transformer { padding: 0.5rem; } }
.tf-body.stale { opacity: 0.45; }
.tf-layout { display: flex; flex-wrap: wrap; gap: 0.5rem 1.2rem; margin-top: 0.6rem; }
.tf-picture { flex: 1 1 22rem; min-width: 0; max-width: 30rem; }
.tf-side { flex: 1 1 16rem; min-width: 0; }
.tf-side .results:first-child { margin-top: 0.3rem; }
.totals { grid-template-columns: 1fr; }
.totals dt { color: var(--_muted); font-size: 0.88rem; }
svg.layer, svg.share { display: block; width: 100%; height: auto; font-family: var(--_font); font-size: 12px; }
svg.layer text, svg.share text { fill: var(--_fg); }
.layer .stream-line, .layer .flow { stroke: var(--_muted); stroke-width: 1.5; fill: none; }
.layer .stream { fill: var(--_muted); font-size: 12px; }
.layer .branch-label { font-weight: 700; font-size: 13px; }
.layer .add circle { fill: var(--_bg); stroke: var(--_fg); stroke-width: 1.5; }
.layer .add text { font-size: 14px; font-weight: 700; }
.layer .op rect { fill: var(--_field-bg); stroke: var(--_border); }
.layer .op text { fill: var(--_muted); font-size: 12px; }
.layer .block { cursor: pointer; outline: none; --_c: var(--_accent); }
.layer .g-dot-product { --_c: var(--_memory); }
.layer .g-mlp { --_c: var(--_compute); }
.layer .box { fill: color-mix(in srgb, var(--_c) 9%, var(--_bg)); stroke: var(--_c); stroke-width: 1.2; }
.layer .bar { fill: var(--_c); }
.layer .bname { font-weight: 700; font-size: 13.5px; }
.layer .bname .sub { font-size: 10.5px; }
.layer .bshape { fill: var(--_muted); font-size: 12px; }
.layer .bnum { font-size: 12.5px; font-variant-numeric: tabular-nums; }
.layer .block:hover .box, .layer .block.active .box { stroke-width: 2.5; fill: color-mix(in srgb, var(--_c) 20%, var(--_bg)); }
.layer .block:focus-visible .box { stroke-width: 3; stroke-dasharray: 4 2; }
.detail { margin-top: 0.4rem; padding: 0.4rem 0.55rem; font-size: 0.88rem; border: 1px solid var(--_border);
  border-radius: var(--_radius); background: var(--_field-bg); min-height: 6.5rem; overflow-wrap: anywhere; }
.detail p { margin: 0 0 0.3rem; }
.detail .what, .detail .hint { color: var(--_muted); }
.detail code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.85em; }
.detail .sizes { color: var(--_muted); }
.detail-nums { margin: 0; }
.detail-nums div { display: flex; justify-content: space-between; gap: 0.6rem; border-top: 1px solid var(--_border); padding: 0.15rem 0; }
.detail-nums dt { color: var(--_muted); }
.detail-nums dd { margin: 0; white-space: nowrap; font-variant-numeric: tabular-nums; }
.share .grid { stroke: var(--_border); }
.share .axis { stroke: var(--_muted); fill: none; }
.share .tick, .share .axis-title { fill: var(--_muted); }
.share .curve { stroke: var(--_memory); stroke-width: 2.5; fill: none; }
.share .cross { stroke: var(--_fg); stroke-dasharray: 5 4; opacity: 0.7; }
.share .cross-label { font-weight: 600; }
.share .now { fill: var(--_accent); stroke: var(--_bg); stroke-width: 1.5; }
.legend { color: var(--_muted); font-size: 0.85rem; margin: 0.2rem 0; }
.more summary { font-size: 0.9rem; }`;

// Its sheets join the table adoptSheets() reads once an element that uses them is loaded.
registerSheets({ transformer: TRANSFORMER_CSS }, { 'sb-transformer': ['shadow', 'transformer'] });
