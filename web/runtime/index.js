// The browser runtime's entry point: defines every <sb-*> element and re-exports the engine
// loader, so one script tag serves the book's pages and anyone embedding a calculator.
//
// An element's code is fetched only when the page has one (its static HTML shows meanwhile):
// each import below is its own chunk, so chapter 1 never downloads the training views. The
// builder preloads the chunks of the elements a page holds (web/builder/build.mjs).
import { SbCalculator } from './core/sb-calculator.js';
import { watchScrollable } from './core/scroll-focus.js';
import { watchCurrentSection } from './core/current-section.js';
import { watchSearch } from './search/search-box.js';

export { loadEngine, CalculatorError } from '../../bindings/wasm/engine.mjs';
// The base of every calculator element, for a page that defines its own.
export { SbCalculator };

const ELEMENTS = {
  'sb-roofline': () => import('./roofline/sb-roofline.js').then((m) => m.SbRoofline),
  'sb-matmul': () => import('./roofline/sb-matmul.js').then((m) => m.SbMatmul),
  'sb-intensity': () => import('./roofline/sb-intensity.js').then((m) => m.SbIntensity),
  'sb-systolic': () => import('./systolic/sb-systolic.js').then((m) => m.SbSystolic),
  'sb-mxu': () => import('./systolic/sb-mxu.js').then((m) => m.SbMxu),
  'sb-chip': () => import('./hardware/sb-chip.js').then((m) => m.SbChip),
  'sb-roofline-plot': () => import('./roofline/sb-roofline-plot.js').then((m) => m.SbRooflinePlot),
  'sb-exercise': () => import('./exercises/sb-exercise.js').then((m) => m.SbExercise),
  'sb-progress': () => import('./exercises/sb-progress.js').then((m) => m.SbProgress),
  'sb-batch-sweep': () => import('./roofline/sb-batch-sweep.js').then((m) => m.SbBatchSweep),
  'sb-systolic-sim': () => import('./systolic/sb-systolic-sim.js').then((m) => m.SbSystolicSim),
  'sb-chip-table': () => import('./hardware/sb-chip-table.js').then((m) => m.SbChipTable),
  'sb-slice': () => import('./hardware/sb-slice.js').then((m) => m.SbSlice),
  'sb-my-chip': () => import('./hardware/sb-my-chip.js').then((m) => m.SbMyChip),
  'sb-collective': () => import('./collectives/sb-collective.js').then((m) => m.SbCollective),
  'sb-sharding': () => import('./sharding/sb-sharding.js').then((m) => m.SbSharding),
  'sb-sharded-matmul': () => import('./sharding/sb-sharded-matmul.js').then((m) => m.SbShardedMatmul),
  'sb-collective-sim': () => import('./collectives/sb-collective-sim.js').then((m) => m.SbCollectiveSim),
  'sb-transformer': () => import('./transformer/sb-transformer.js').then((m) => m.SbTransformer),
  'sb-model-config': () => import('./transformer/sb-model-config.js').then((m) => m.SbModelConfig),
  'sb-collective-sweep': () => import('./collectives/sb-collective-sweep.js').then((m) => m.SbCollectiveSweep),
  'sb-pipeline': () => import('./training/sb-pipeline.js').then((m) => m.SbPipeline),
  'sb-training': () => import('./training/sb-training.js').then((m) => m.SbTraining),
  'sb-training-plan': () => import('./training/sb-training-plan.js').then((m) => m.SbTrainingPlan),
  'sb-training-search': () => import('./training/sb-training-search.js').then((m) => m.SbTrainingSearch),
  'sb-training-budget': () => import('./training/sb-training-budget.js').then((m) => m.SbTrainingBudget),
  'sb-training-split': () => import('./training/sb-training-split.js').then((m) => m.SbTrainingSplit),
};
const SELECTOR = Object.keys(ELEMENTS).join(',');
const asked = new Set();

// Defines `tag` once its code arrives; a page may load the bundle twice (a blog post with two
// embeds), so a tag already defined is left alone. A chunk that fails to load is asked for
// again when another such element appears.
function define(tag) {
  if (asked.has(tag) || customElements.get(tag)) return;
  asked.add(tag);
  ELEMENTS[tag]().then(
    (element) => { if (!customElements.get(tag)) customElements.define(tag, element); },
    () => asked.delete(tag),
  );
}

function defineWithin(root) {
  for (const node of root.querySelectorAll(SELECTOR)) define(node.localName);
}

defineWithin(document);
// Elements added later (a page that builds its widgets from script) are defined as they come.
const watcher = new MutationObserver((records) => {
  for (const record of records) {
    for (const node of record.addedNodes) {
      if (node.nodeType !== Node.ELEMENT_NODE) continue;
      if (Object.hasOwn(ELEMENTS, node.localName)) define(node.localName);
      if (node.firstElementChild) defineWithin(node);
    }
  }
  if (asked.size === Object.keys(ELEMENTS).length) watcher.disconnect();
});
watcher.observe(document.documentElement, { childList: true, subtree: true });

// Page-level behaviour, for the book's pages (an embedding page has none of their boxes).
watchScrollable();
watchCurrentSection();
watchSearch();
