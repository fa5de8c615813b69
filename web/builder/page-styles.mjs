// KaTeX's style attributes on a built page become classes of assets/css/math.css
// (runtime/core/hoist-styles.js says why). Only the light DOM: a document's rule cannot reach
// into a declarative shadow root, whose markup must carry no style at all (page-check.mjs
// fails the build on any attribute left).
import { hoistStyles } from '../runtime/core/hoist-styles.js';

const SHADOW_ROOT = /(<template shadowrootmode="open">[\s\S]*?<\/template>)/;

export function hoistPageStyles(html, rules) {
  return html.split(SHADOW_ROOT).map((part, i) => (i % 2 ? part : hoistStyles(part, rules))).join('');
}
