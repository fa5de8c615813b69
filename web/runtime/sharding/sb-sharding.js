// <sb-sharding array="A[I_XY, J]" mesh="X=2, Y=2" i="1024" j="4096" dtype="fp32" chip="h100">:
// the book's sharding notation as a picture. The engine lays the array out on the mesh
// (shardingLayout) and prices it (the array-memory calculator); this element only draws the
// answer, redrawing as the reader types. A bad spec gets the engine's message beside its field
// with the offending character marked, and the last good picture stays, dimmed. Dimension
// sizes are attributes named after the dimensions (lower case, as HTML has them); without
// them the picture still draws and the bytes wait for the sizes.
import { SpecWidget } from './spec-widget.js';
import { runSharding, shardingBodyHTML, shardingHTML, dimsHTML, dimensionNamesOf } from './sharding-view.js';
import './sharding-css.js';

export class SbSharding extends SpecWidget {
  static calculator = 'array-memory';
  static spec = 'array';
  static loading = 'Loading the sharding engine…';

  ready(engine) {
    if (typeof engine.shardingLayout !== 'function') throw new Error('this engine build has no shardingLayout');
    super.ready(engine);
  }

  dimNames(values) {
    return dimensionNamesOf(this.schema, values);
  }

  html(values, run) {
    return shardingHTML({ schema: this.schema, chips: this.api.chips(), values, run });
  }

  dimsHTML(names, values) {
    return dimsHTML(this.schema, names, values, null);
  }

  run(values) {
    return runSharding(this.api, this.schema, values);
  }

  body(run) {
    return run.layout ? shardingBodyHTML(this.schema, run) : null;
  }
}
