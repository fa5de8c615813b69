// Measurements the book draws beside the engine's model, read from the repository's copy of the
// shared reference folder (reference/, see its README), so a clean clone builds. Copied into a page
// as data, never typed into code; a missing or malformed file fails the build, saying where it
// was looked for.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REFERENCE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../reference');
// The shared folder the copies come from, when it sits beside the repository.
export const SHARED_REFERENCE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/reference');

// The H200 matmul sweep: { device, matmul: [{ dtype, M, K, N, seconds }] }.
export function h200Matmuls(dir = REFERENCE_DIR) {
  const file = path.join(dir, 'h200-matmul.json');
  let data;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`the GPU kernel roofline draws the measured H200 matmuls of ${file}, which could not be read ` +
      `(${error.code ?? error.message}): see reference/README.md`, { cause: error });
  }
  const ok = Array.isArray(data?.matmul) && data.matmul.every((m) => typeof m.dtype === 'string' &&
    [m.M, m.K, m.N, m.seconds].every((v) => typeof v === 'number' && v > 0));
  if (!ok) throw new Error(`${file}: expected "matmul": [{ "dtype", "M", "K", "N", "seconds" }] with positive numbers`);
  return { device: String(data.device ?? ''), matmul: data.matmul.map(({ dtype, M, K, N, seconds }) => ({ dtype, M, K, N, seconds })) };
}
