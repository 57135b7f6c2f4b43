import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { Stage } from '../../functions/config';
import { stackName } from '../../lib/stack-name';
import { printInReport } from '../support/log-capture';
import { synthesized } from './template';

/** The regions cfn-lint checks the templates against: the stack pins none, so any must accept them. */
const cfnLintRegions = ['us-east-1', 'eu-west-1'] as const;

/** cfn-lint is a Python tool; CI has it, a developer's machine may not. */
const cfnLintInstalled = spawnSync('cfn-lint', ['--version'], { encoding: 'utf8' }).status === 0;
if (!cfnLintInstalled) {
  printInReport('cfn-lint is not installed: its check of the synthesized templates was skipped');
}

describe('cfn-lint', () => {
  it.skipIf(!cfnLintInstalled)(
    `finds no error in either stage's template for ${cfnLintRegions.join(' and ')}`,
    () => {
      const templates = Object.values(Stage).map(
        (stage) => synthesized(stage).app.synth().getStackByName(stackName(stage)).templateFullPath,
      );
      // Only errors fail the check, so cfn-lint runs no warning or informational rule: they took
      // about 30 % of its CPU. `.ci/run` lints the same templates with every rule and reports the warnings.
      const lint = spawnSync(
        'cfn-lint',
        [
          ...['--regions', ...cfnLintRegions],
          ...['--non-zero-exit-code', 'error', '--ignore-checks', 'W', 'I'],
          ...['--', ...templates],
        ],
        { encoding: 'utf8' },
      );
      expect(lint.status, `${lint.stdout}${lint.stderr}`).toBe(0);
    },
    180_000,
  );
});
