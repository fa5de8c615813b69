// The browser runtime's entry point: registers every <sb-*> element and re-exports the engine
// loader, so one bundle serves the book's pages and anyone embedding a calculator.
import { SbCalculator } from './sb-calculator.js';
import { SbRoofline } from './sb-roofline.js';
import { SbMatmul } from './sb-matmul.js';
import { SbIntensity } from './sb-intensity.js';
import { SbSystolic } from './sb-systolic.js';
import { SbMxu } from './sb-mxu.js';
import { SbChip } from './sb-chip.js';
import { SbRooflinePlot } from './sb-roofline-plot.js';
import { SbExercise } from './sb-exercise.js';
import { SbProgress } from './sb-progress.js';
import { SbBatchSweep } from './sb-batch-sweep.js';
import { SbSystolicSim } from './sb-systolic-sim.js';
import { SbChipTable } from './sb-chip-table.js';
import { SbTorus } from './sb-torus.js';
import { SbMyChip } from './sb-my-chip.js';
import { SbCollective } from './sb-collective.js';
import { SbSharding } from './sb-sharding.js';
import { SbShardedMatmul } from './sb-sharded-matmul.js';
import { SbCollectiveSim } from './sb-collective-sim.js';
import { SbTransformer } from './sb-transformer.js';
import { SbCollectiveSweep } from './sb-collective-sweep.js';

export { loadEngine, CalculatorError } from '../../bindings/wasm/engine.mjs';
export { SbCalculator, SbRoofline, SbMatmul, SbIntensity, SbSystolic, SbMxu, SbChip, SbRooflinePlot, SbExercise, SbProgress, SbBatchSweep, SbChipTable, SbTorus, SbMyChip,
  SbCollective, SbSharding, SbShardedMatmul, SbCollectiveSim, SbTransformer, SbCollectiveSweep };

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
  'sb-torus': SbTorus,
  'sb-my-chip': SbMyChip,
  'sb-collective': SbCollective,
  'sb-sharding': SbSharding,
  'sb-sharded-matmul': SbShardedMatmul,
  'sb-collective-sim': SbCollectiveSim,
  'sb-transformer': SbTransformer,
  'sb-collective-sweep': SbCollectiveSweep,
};

// A page may load the bundle twice (a blog post with two embeds): define each tag once.
for (const [tag, element] of Object.entries(ELEMENTS)) {
  if (!customElements.get(tag)) customElements.define(tag, element);
}
