// URLs that come from attributes an author or an embedding page controls are written into
// links only when they are relative or http(s): a `javascript:` link (or `data:`, `vbscript:`,
// in any case or with tabs and newlines inside, which the URL parser drops) would run on click.

// Any http base: a relative URL resolves to it, a URL with a scheme of its own keeps that scheme.
const PROBE_BASE = 'http://relative.invalid/';

// The href to write, or '' when the text must not become a link.
export function safeHref(text) {
  if (typeof text !== 'string') return '';
  let url;
  try {
    url = new URL(text, PROBE_BASE);
  } catch {
    return '';
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? text : '';
}
