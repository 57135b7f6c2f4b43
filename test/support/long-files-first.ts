import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The suite's longest files, in the order they start (docs/decisions/test-suite-speed.md).
 * A fresh clone has no timings of its own, and vitest then starts larger files first, which left
 * cfn-lint (about 25 s of one core) to start last and run alone at the end. The three that start
 * together use different tools (Chromium, cfn-guard, the local runtime), and cfn-lint starts when
 * the first of them ends. A file missing from the run is skipped; a renamed one only runs later.
 */
export const longFilesFirst = [
  'test/browser/portal.test.ts',
  'test/infra/control-tower.test.ts',
  'test/e2e/webhook-recovery.test.ts',
  'test/infra/cfn-lint.test.ts',
  'test/e2e/npm-stop.test.ts',
  'test/e2e/cdk-app-errors.test.ts',
  'test/e2e/soak.test.ts',
  'test/e2e/smoke.test.ts',
  'test/e2e/operator-commands.test.ts',
  'test/infra/operations.test.ts',
  'test/e2e/local-table-access.test.ts',
  'test/e2e/walkthrough.test.ts',
  'test/unit/bench/import-instructions.test.ts',
  'test/e2e/dynamodb-faults.test.ts',
  'test/e2e/webhook-deliveries.test.ts',
  'test/e2e/authorization-matrix.test.ts',
  'test/infra/delivery-pipeline.test.ts',
  'test/infra/noisy-neighbours.test.ts',
] as const;

/**
 * vitest's order (projects by group, then its cached timings, else larger files first), with the
 * files above moved to the front of it in their order.
 */
export default class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const unlisted = longFilesFirst.length;
    const positions = new Map<string, number>(longFilesFirst.map((file, index) => [file, index]));
    const rank = (file: TestSpecification): number =>
      positions.get(relative(this.ctx.config.root, file.moduleId)) ?? unlisted;
    const first = sorted.filter((file) => rank(file) < unlisted);
    first.sort((a, b) => rank(a) - rank(b));
    return [...first, ...sorted.filter((file) => rank(file) === unlisted)];
  }
}
