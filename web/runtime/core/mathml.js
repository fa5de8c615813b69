// A step's LaTeX as MathML, which browsers draw natively: the widgets' formulas live in shadow
// roots, where the page's KaTeX stylesheet does not reach. The elements import this module on
// demand, so KaTeX stays out of the main bundle; the builder imports it directly.
import katex from 'katex';

export function texToMathML(latex) {
  return katex.renderToString(String(latex ?? ''), { output: 'mathml', throwOnError: false });
}
