// The browser runtime's entry point: defines every <sb-*> element and re-exports the engine
// loader, so one script tag serves the book's pages and anyone embedding a calculator.
//
// An element's code is fetched only when the page has one (its static HTML shows meanwhile):
// each import below is its own chunk, so chapter 1 never downloads the training views. The
// builder preloads the chunks of the elements a page holds (web/builder/build.mjs).
import { SbCalculator } from './core/sb-calculator.js';
import { watchScrollable } from './core/scroll-focus.js';
import { watchCurrentSection } from './core/current-section.js';
import { watchSearch } from './site-search/search-box.js';
import { useWorker } from './core/long-runner.js';
import './hardware/my-chip-hook.js'; // every calculator's chip list offers the reader's own chip
import { worker as trainingWorker } from './training/elements.js';

import { useDomains } from '../../bindings/wasm/engine.mjs';

export { loadEngine, CalculatorError } from '../../bindings/wasm/engine.mjs';
// The base of every calculator element, for a page that defines its own.
export { SbCalculator };

// Each element with its engine domain (its folder; 'all' for exercises, which may use any
// calculator) and the import of its code.
const ELEMENTS = {
  'sb-roofline': ['roofline', () => import('./roofline/sb-roofline.js').then((m) => m.SbRoofline)],
  'sb-matmul': ['roofline', () => import('./roofline/sb-matmul.js').then((m) => m.SbMatmul)],
  'sb-intensity': ['roofline', () => import('./roofline/sb-intensity.js').then((m) => m.SbIntensity)],
  'sb-systolic': ['systolic', () => import('./systolic/sb-systolic.js').then((m) => m.SbSystolic)],
  'sb-mxu': ['systolic', () => import('./systolic/sb-mxu.js').then((m) => m.SbMxu)],
  'sb-chip': ['hardware', () => import('./hardware/sb-chip.js').then((m) => m.SbChip)],
  'sb-roofline-plot': ['roofline', () => import('./roofline/sb-roofline-plot.js').then((m) => m.SbRooflinePlot)],
  'sb-exercise': ['all', () => import('./exercises/sb-exercise.js').then((m) => m.SbExercise)],
  'sb-progress': ['all', () => import('./exercises/sb-progress.js').then((m) => m.SbProgress)],
  'sb-batch-sweep': ['roofline', () => import('./roofline/sb-batch-sweep.js').then((m) => m.SbBatchSweep)],
  'sb-systolic-sim': ['systolic', () => import('./systolic/sb-systolic-sim.js').then((m) => m.SbSystolicSim)],
  'sb-chip-table': ['hardware', () => import('./hardware/sb-chip-table.js').then((m) => m.SbChipTable)],
  'sb-slice': ['hardware', () => import('./hardware/sb-slice.js').then((m) => m.SbSlice)],
  'sb-my-chip': ['hardware', () => import('./hardware/sb-my-chip.js').then((m) => m.SbMyChip)],
  'sb-collective': ['collectives', () => import('./collectives/sb-collective.js').then((m) => m.SbCollective)],
  'sb-sharding': ['sharding', () => import('./sharding/sb-sharding.js').then((m) => m.SbSharding)],
  'sb-sharded-matmul': ['sharding', () => import('./sharding/sb-sharded-matmul.js').then((m) => m.SbShardedMatmul)],
  'sb-collective-sim': ['collectives', () => import('./collectives/sb-collective-sim.js').then((m) => m.SbCollectiveSim)],
  'sb-transformer': ['transformer', () => import('./transformer/sb-transformer.js').then((m) => m.SbTransformer)],
  'sb-model-config': ['transformer', () => import('./transformer/sb-model-config.js').then((m) => m.SbModelConfig)],
  'sb-collective-sweep': ['collectives', () => import('./collectives/sb-collective-sweep.js').then((m) => m.SbCollectiveSweep)],
  'sb-pipeline': ['training', () => import('./training/sb-pipeline.js').then((m) => m.SbPipeline)],
  'sb-training': ['training', () => import('./training/sb-training.js').then((m) => m.SbTraining)],
  'sb-training-plan': ['training', () => import('./training/sb-training-plan.js').then((m) => m.SbTrainingPlan)],
  'sb-training-search': ['training', () => import('./training/sb-training-search.js').then((m) => m.SbTrainingSearch)],
  'sb-training-budget': ['training', () => import('./training/sb-training-budget.js').then((m) => m.SbTrainingBudget)],
  'sb-training-split': ['training', () => import('./training/sb-training-split.js').then((m) => m.SbTrainingSplit)],
};
// The worker of each domain with long calculations, for its elements.
const WORKERS = { training: trainingWorker };
const SELECTOR = Object.keys(ELEMENTS).join(',');
const asked = new Set();

// Defines `tag` once its code arrives; a page may load the bundle twice (a blog post with two
// embeds), so a tag already defined is left alone. A chunk that fails to load is asked for
// again when another such element appears.
function define(tag) {
  if (asked.has(tag) || customElements.get(tag)) return;
  asked.add(tag);
  // An embedding page (no builder's tag) then loads the smallest engine module for its elements.
  useDomains([ELEMENTS[tag][0]]);
  if (WORKERS[ELEMENTS[tag][0]]) useWorker([tag], WORKERS[ELEMENTS[tag][0]]);
  ELEMENTS[tag][1]().then(
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
