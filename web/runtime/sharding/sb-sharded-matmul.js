// <sb-sharded-matmul spec="A[I_X, J] * B[J, K_Y] -> C[I_X, K_Y]" mesh="X=4, Y=4" i="4096"
// j="8192" k="16384" dtype="bf16" chip="tpu-v5e">: the sharded-matmul planner. The engine's
// sharded-matmul calculator finds the case, the collectives to insert and what they cost; this
// element lays its answer out and redoes it as the reader types. The form offers a size field
// for each dimension the spec names (read here only to build the form; the engine checks the
// spec). Errors go beside the field they name, the spec's with the offending character marked.
import { SpecWidget } from './spec-widget.js';
import { CALCULATOR, plannerDims, plannerHTML, plannerBodyHTML, plannerDimsHTML, runPlanner } from './planner-view.js';
import './sharding-css.js';

export class SbShardedMatmul extends SpecWidget {
  static calculator = CALCULATOR;
  static spec = 'spec';
  static loading = 'Loading the planner engine…';

  dimNames(values) {
    return plannerDims(this.schema, values);
  }

  html(values, run) {
    return plannerHTML({ schema: this.schema, chips: this.api.chips(), values, run, tex: this.tex });
  }

  dimsHTML(names, values) {
    return plannerDimsHTML(this.schema, names, values, null);
  }

  run(values) {
    return runPlanner(this.api, this.schema, values);
  }

  body(run) {
    return run.result ? plannerBodyHTML(this.schema, run.result, this.tex) : null;
  }
}
