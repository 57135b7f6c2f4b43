import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { Stage } from '../../functions/config';
import { stackName } from '../../lib/stack-name';
import { printInReport } from '../support/log-capture';
import { synthesized } from './template';

/**
 * The region the committed stage files pin (stages/). The stack itself pins none, so `.ci/run` lints
 * the same templates for us-east-1 too, with every rule; here the second region cost about 8 s of CPU
 * for checks that repeat the first's (docs/decisions/test-suite-speed.md).
 */
const cfnLintRegion = 'eu-west-1';

describe('cfn-lint', () => {
  it(`finds no error in either stage's template for ${cfnLintRegion}`, ({ skip }) => {
    const templates = Object.values(Stage).map(
      (stage) => synthesized(stage).app.synth().getStackByName(stackName(stage)).templateFullPath,
    );
    // Only errors fail the check, so cfn-lint runs no warning or informational rule: they took
    // about 30 % of its CPU. `.ci/run` lints the same templates with every rule and reports the warnings.
    const lint = spawnSync(
      'cfn-lint',
      [
        ...['--regions', cfnLintRegion],
        ...['--non-zero-exit-code', 'error', '--ignore-checks', 'W', 'I'],
        ...['--', ...templates],
      ],
      { encoding: 'utf8' },
    );
    // cfn-lint is a Python tool; CI has it, a developer's machine may not.
    if ((lint.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
      printInReport('cfn-lint is not installed: its check of the synthesized templates was skipped');
      skip();
    }
    expect(lint.status, `${lint.stdout}${lint.stderr}`).toBe(0);
  }, 180_000);
});
