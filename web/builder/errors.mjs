// A build error names the file and line, so an author can go straight to the mistake.
import { JsonSyntaxError, parseJsonLines } from './json-lines.mjs';

export class BuildError extends Error {
  constructor(file, line, message) {
    super(`${file}:${line}: ${message}`);
    this.name = 'BuildError';
    this.file = file;
    this.line = line;
    this.reason = message;
  }
}

// Line (1-based) of the first occurrence of `needle` in `text`, or 1.
export function lineOf(text, needle) {
  const at = text.indexOf(needle);
  return at < 0 ? 1 : text.slice(0, at).split('\n').length;
}

export function escapeHtml(text) {
  return String(text)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

// A JSON file as parseJsonLines' nodes; a syntax error fails the build at its line.
export function readJson(file, text) {
  try {
    return parseJsonLines(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new BuildError(file, error.line, `not valid JSON: ${error.message}`);
    throw error;
  }
}
