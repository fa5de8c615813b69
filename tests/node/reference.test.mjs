// reference/ holds copies of ../shared/reference/ so a clean clone builds; where the shared
// folder sits beside the repository, each copy must be the same bytes as its source.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { REFERENCE_DIR, SHARED_REFERENCE_DIR } from '../../web/builder/reference.mjs';

const FILES = ['h200-matmul.json', 'published-runs.json'];

test('the repository keeps every reference file the builder reads', () => {
  for (const file of FILES) assert.ok(fs.existsSync(path.join(REFERENCE_DIR, file)), file);
});

test('each copy is the shared folder\'s file, byte for byte', { skip: !fs.existsSync(SHARED_REFERENCE_DIR) && 'no ../shared/reference beside the repository' }, () => {
  for (const file of FILES) {
    assert.ok(fs.readFileSync(path.join(REFERENCE_DIR, file)).equals(fs.readFileSync(path.join(SHARED_REFERENCE_DIR, file))),
      `reference/${file} differs from ../shared/reference/${file}: copy it again`);
  }
});
