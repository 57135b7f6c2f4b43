import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first (measured on an idle 2-core machine; see
 * docs/decisions/e2e-fixture-and-test-workers.md). A fresh clone has no vitest cache of durations, so
 * without this list a long file could start last and run alone while the other workers idle.
 */
export const longFiles = [
  'test/infra/control-tower.test.ts',
  'test/infra/cfn-lint.test.ts',
  'test/unit/bench/import-instructions.test.ts',
  'test/e2e/smoke.test.ts',
  'test/e2e/readme.test.ts',
  'test/e2e/npm-stop.test.ts',
  'test/e2e/webhook-recovery.test.ts',
  'test/e2e/bench.test.ts',
  'test/e2e/local-table-access.test.ts',
  'test/e2e/cdk-app-errors.test.ts',
] as const;

/**
 * vitest's order (projects by `groupOrder`, then its cache of durations or file sizes), with the
 * long files moved to the front of their project.
 */
export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const rank = (spec: TestSpecification) => {
      const index = (longFiles as readonly string[]).indexOf(relative(root, spec.moduleId));
      return index === -1 ? longFiles.length : index;
    };
    // The base order keeps each project's files together; the long ones go first within it.
    const byProject = new Map<string, TestSpecification[]>();
    for (const spec of sorted) {
      const group = byProject.get(spec.project.name) ?? [];
      group.push(spec);
      byProject.set(spec.project.name, group);
    }
    return [...byProject.values()].flatMap((group) =>
      group
        .map((spec, order) => ({ spec, order }))
        .sort((a, b) => rank(a.spec) - rank(b.spec) || a.order - b.order)
        .map(({ spec }) => spec),
    );
  }
}
