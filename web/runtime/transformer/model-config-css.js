// <sb-model-config>: the paste box, the example buttons, the mapping table.
import { registerSheets } from '../core/sheets.js';
export const MODEL_CONFIG_CSS = `
.sb-model-config { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.75rem; }
.sb-model-config textarea { font: 0.85rem/1.35 ui-monospace, SFMono-Regular, Menlo, monospace; width: 100%;
  min-height: 8rem; resize: vertical; color: var(--_fg); background: var(--_field-bg);
  border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.4rem; }
.sb-model-config textarea[aria-invalid] { border-color: var(--_error); }
.sb-model-config textarea:focus-visible, .sb-model-config button:focus-visible {
  outline: 2px solid var(--_accent); outline-offset: 1px; }
.mc-examples { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; margin-top: 0.5rem; font-size: 0.9rem; }
.sb-model-config button { font: inherit; font-size: 0.9rem; color: var(--_accent); background: var(--_bg);
  border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.3rem 0.6rem; cursor: pointer;
  min-height: 2.25rem; }
.sb-model-config button[data-use] { color: var(--_bg); background: var(--_accent); border-color: var(--_accent); }
.mc-mapping { table-layout: fixed; }
.mc-mapping th, .mc-mapping td { white-space: normal; overflow-wrap: anywhere; vertical-align: top; }
.mc-mapping col.mc-col-value { width: 6.5rem; }
.mc-mapping caption { text-align: left; font-weight: 600; padding: 0.6rem 0 0.3rem; }
.mc-mapping th[scope="row"] { text-align: left; font-weight: 400; }
.mc-value { text-align: right; font-variant-numeric: tabular-nums; }
.mc-desc, .mc-default, .mc-kind { color: var(--_muted); font-size: 0.85em; }
.mc-warning { color: var(--_memory); margin: 0.6rem 0 0; }
.mc-unmapped ul { margin: 0; padding-left: 1.2rem; font-size: 0.88rem; }
.mc-status:empty { display: none; }
.mc-status { color: var(--_muted); font-size: 0.9rem; }
`;

// Its sheets join the table adoptSheets() reads once an element that uses them is loaded.
registerSheets({ 'model-config': MODEL_CONFIG_CSS }, { 'sb-model-config': ['shadow', 'model-config'] });
