// The browser runtime's entry point: registers every <sb-*> element and re-exports the engine
// loader, so one bundle serves the book's pages and anyone embedding a calculator.
import { SbCalculator } from './core/sb-calculator.js';
import { SbRoofline } from './roofline/sb-roofline.js';
import { SbMatmul } from './roofline/sb-matmul.js';
import { SbIntensity } from './roofline/sb-intensity.js';
import { SbSystolic } from './systolic/sb-systolic.js';
import { SbMxu } from './systolic/sb-mxu.js';
import { SbChip } from './hardware/sb-chip.js';
import { SbRooflinePlot } from './roofline/sb-roofline-plot.js';
import { SbExercise } from './exercises/sb-exercise.js';
import { SbProgress } from './exercises/sb-progress.js';
import { SbBatchSweep } from './roofline/sb-batch-sweep.js';
import { SbSystolicSim } from './systolic/sb-systolic-sim.js';
import { SbChipTable } from './hardware/sb-chip-table.js';
import { SbSlice } from './hardware/sb-slice.js';
import { SbMyChip } from './hardware/sb-my-chip.js';
import { SbCollective } from './collectives/sb-collective.js';
import { SbSharding } from './sharding/sb-sharding.js';
import { SbShardedMatmul } from './sharding/sb-sharded-matmul.js';
import { SbCollectiveSim } from './collectives/sb-collective-sim.js';
import { SbTransformer } from './transformer/sb-transformer.js';
import { SbModelConfig } from './transformer/sb-model-config.js';
import { SbCollectiveSweep } from './collectives/sb-collective-sweep.js';
import { SbPipeline } from './training/sb-pipeline.js';
import { SbTraining } from './training/sb-training.js';
import { SbTrainingPlan } from './training/sb-training-plan.js';
import { SbTrainingSearch } from './training/sb-training-search.js';
import { SbTrainingBudget } from './training/sb-training-budget.js';
import { SbTrainingSplit } from './training/sb-training-split.js';
import { watchScrollable } from './core/scroll-focus.js';
import { watchCurrentSection } from './core/current-section.js';
import { watchSearch } from './search/search-box.js';

export { loadEngine, CalculatorError } from '../../bindings/wasm/engine.mjs';
export { SbCalculator, SbRoofline, SbMatmul, SbIntensity, SbSystolic, SbMxu, SbChip, SbRooflinePlot, SbExercise, SbProgress, SbBatchSweep, SbChipTable, SbSlice, SbMyChip,
  SbCollective, SbSharding, SbShardedMatmul, SbCollectiveSim, SbTransformer, SbCollectiveSweep, SbPipeline, SbTraining, SbTrainingSearch, SbTrainingBudget,
  SbModelConfig };

const ELEMENTS = {
  'sb-roofline': SbRoofline,
  'sb-matmul': SbMatmul,
  'sb-intensity': SbIntensity,
  'sb-systolic': SbSystolic,
  'sb-mxu': SbMxu,
  'sb-chip': SbChip,
  'sb-roofline-plot': SbRooflinePlot,
  'sb-exercise': SbExercise,
  'sb-progress': SbProgress,
  'sb-batch-sweep': SbBatchSweep,
  'sb-systolic-sim': SbSystolicSim,
  'sb-chip-table': SbChipTable,
  'sb-slice': SbSlice,
  'sb-my-chip': SbMyChip,
  'sb-collective': SbCollective,
  'sb-sharding': SbSharding,
  'sb-sharded-matmul': SbShardedMatmul,
  'sb-collective-sim': SbCollectiveSim,
  'sb-transformer': SbTransformer,
  'sb-model-config': SbModelConfig,
  'sb-collective-sweep': SbCollectiveSweep,
  'sb-pipeline': SbPipeline,
  'sb-training': SbTraining,
  'sb-training-plan': SbTrainingPlan,
  'sb-training-search': SbTrainingSearch,
  'sb-training-budget': SbTrainingBudget,
  'sb-training-split': SbTrainingSplit,
};

// A page may load the bundle twice (a blog post with two embeds): define each tag once.
for (const [tag, element] of Object.entries(ELEMENTS)) {
  if (!customElements.get(tag)) customElements.define(tag, element);
}

// Page-level behaviour, for the book's pages (an embedding page has none of their boxes).
watchScrollable();
watchCurrentSection();
watchSearch();
