import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from './function-spans';
import { filesUnder, importCircles } from './import-graph';

/** The most files the store may hold: one module per entity and the shared mechanics (docs/architecture.md#where-each-concern-lives). */
const storeFileLimit = 20;

describe('import graph', () => {
  it('has no import circle in functions/, lib/, tools/ or bin/, type-only imports included', () => {
    expect(importCircles(['functions', 'lib', 'tools', 'bin'])).toEqual([]);
  });

  it(`keeps functions/store to at most ${storeFileLimit} files, one module per entity`, () => {
    expect(filesUnder('functions/store').length).toBeLessThanOrEqual(storeFileLimit);
  });

  describe('the circle finder', () => {
    mkdirSync(join(projectRoot, 'test-results'), { recursive: true });
    const scratch = mkdtempSync(join(projectRoot, 'test-results', 'import-graph-'));
    const folder = relative(projectRoot, scratch);
    afterAll(() => rmSync(scratch, { recursive: true, force: true }));

    it('finds a circle through a type-only import and an index file, and nothing in a chain', () => {
      mkdirSync(join(scratch, 'b'));
      writeFileSync(join(scratch, 'a.ts'), "import type { B } from './b';\nexport type A = B;\n");
      writeFileSync(join(scratch, 'b', 'index.ts'), "import { c } from '../c';\nexport type B = typeof c;\n");
      writeFileSync(join(scratch, 'c.ts'), "import type { A } from './a';\nexport const c: A | 1 = 1;\n");
      writeFileSync(join(scratch, 'd.ts'), "import { c } from './c';\nexport const d = c;\n");
      expect(importCircles([folder])).toEqual([[`${folder}/a.ts`, `${folder}/b/index.ts`, `${folder}/c.ts`]]);
    });
  });
});
