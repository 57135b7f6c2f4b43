import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { LongFilesFirst, longFiles } from '../../support/long-files-first';

const root = resolve(import.meta.dirname, '..', '..', '..');

/** A file of a project as the sequencer sees it; the cache knows no file, as on a fresh clone. */
const spec = (file: string, project: string, groupOrder: number) =>
  ({
    moduleId: join(root, file),
    project: { name: project, config: { sequence: { groupOrder }, isolate: false } },
  }) as unknown as TestSpecification;

const sequencer = new LongFilesFirst({
  config: { root },
  cache: { getFileTestResults: () => undefined, getFileStats: () => undefined },
} as unknown as Vitest);

describe('LongFilesFirst', () => {
  it('names only files that exist', () => {
    for (const file of longFiles) expect(existsSync(join(root, file)), file).toBe(true);
  });

  it('starts the long files first, longest first, and keeps the projects in their order', async () => {
    const files = [
      spec('test/unit/domain/money.test.ts', 'suite', 1),
      spec('test/e2e/smoke.test.ts', 'suite', 1),
      spec('test/e2e/invoices-numbering.test.ts', 'alone', 2),
      spec('test/infra/control-tower.test.ts', 'suite', 1),
      spec('test/logs/log-scan.test.ts', 'log-scan', 3),
    ];
    const sorted = await sequencer.sort(files);
    expect(sorted.map((file) => file.moduleId.slice(root.length + 1))).toEqual([
      'test/infra/control-tower.test.ts',
      'test/e2e/smoke.test.ts',
      'test/unit/domain/money.test.ts',
      'test/e2e/invoices-numbering.test.ts',
      'test/logs/log-scan.test.ts',
    ]);
  });
});
