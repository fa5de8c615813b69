// <sb-published-runs>: the table ::published-runs writes at build time (published runs beside the
// engine's prediction). It is static HTML and needs no engine; the class only defines the tag.
export class SbPublishedRuns extends HTMLElement {}
