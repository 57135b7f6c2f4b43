import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Stack, Validations } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { VALIDATION_REPORT_FILE } from 'aws-cdk-lib/cx-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { Stage } from '../../functions/config';
import {
  ControlTowerRules,
  controlTowerPluginName,
  controlTowerRuleId,
  controlTowerRules,
  rulesEvaluating,
} from '../../lib/control-tower-rules';
import { buildApp } from '../../lib/stack';
import { stackName } from '../../lib/stack-name';
import { printInReport } from '../support/log-capture';
import { testApp } from './template';

const stages = Object.values(Stage);

interface AcknowledgedFinding {
  readonly ruleName: string;
  readonly description: string;
  readonly reason: string;
  readonly acknowledgedAt: string;
  readonly violatingConstructs: readonly { readonly constructPath: string; readonly constructFqn: string }[];
}

interface PluginReport {
  readonly pluginName: string;
  readonly conclusion: string;
  readonly violations: readonly unknown[];
  readonly suppressedViolations?: readonly AcknowledgedFinding[];
}

const reports = new Map<Stage, PluginReport>();

/**
 * Each stage synthesized with the Control Tower rules as a validation plugin. Synthesis throws, with
 * cfn-guard's report in the message, on any finding no `Validations.acknowledge` covers.
 */
beforeAll(() => {
  for (const stage of stages) {
    const { app } = buildApp(stage, { app: testApp(), controlTowerRules: true });
    const assembly = app.synth();
    const report = JSON.parse(
      readFileSync(path.join(assembly.directory, VALIDATION_REPORT_FILE), 'utf8'),
    ) as {
      pluginReports: PluginReport[];
    };
    const guard = report.pluginReports.find((plugin) => plugin.pluginName === controlTowerPluginName);
    if (guard === undefined) throw new Error(`${stage}: no report of ${controlTowerPluginName}`);
    reports.set(stage, guard);
  }
}, 600_000);

function acknowledged(stage: Stage): readonly AcknowledgedFinding[] {
  return reports.get(stage)?.suppressedViolations ?? [];
}

/**
 * The reviewed acknowledgements, by guard rule name: each is listed with its reason in
 * docs/security.md. A finding of any other rule fails the synthesis; one of these rules on a new
 * resource fails the check of where it was acknowledged.
 */
const expectedRules: Record<Stage, readonly string[]> = {
  sandbox: ['cloudwatch_log_group_retention_period_check', 'lambda_inside_vpc_check', 'sqs_dlq_check'],
  production: ['lambda_inside_vpc_check', 'sqs_dlq_check'],
};

describe('Control Tower proactive controls', () => {
  it.each(stages)('leaves no finding in the %s stack unacknowledged', (stage) => {
    const report = reports.get(stage);
    expect(report?.violations).toEqual([]);
    expect(report?.conclusion).toBe('success');
  });

  it.each(stages)('acknowledges only the reviewed rules in %s, each with a reason', (stage) => {
    const findings = acknowledged(stage);
    // Rule → reason → how many resources it covers.
    const byRule = new Map<string, Map<string, number>>();
    for (const finding of findings) {
      const reasons = byRule.get(finding.ruleName) ?? new Map<string, number>();
      reasons.set(finding.reason, (reasons.get(finding.reason) ?? 0) + finding.violatingConstructs.length);
      byRule.set(finding.ruleName, reasons);
    }
    const lines = [...byRule].flatMap(([rule, reasons]) => [
      // In words: a rule name such as cloudwatch_log_group_retention_period_check is 43 characters of
      // the pay-link slug's alphabet, which the log scan (test/logs/log-scan.test.ts) rightly flags.
      `  ${rule.replaceAll('_', ' ')}`,
      ...[...reasons].map(([reason, resources]) => `    ${resources} × ${reason}`),
    ]);
    printInReport(`Control Tower findings acknowledged in ${stackName(stage)}:\n${lines.join('\n')}`);
    expect([...byRule.keys()].sort()).toEqual(expectedRules[stage]);
    for (const finding of findings) expect(finding.reason.length).toBeGreaterThan(60);
  });

  it.each(stages)(
    'acknowledges every %s finding on its resource, the log retention of a stage aside',
    (stage) => {
      const stackPath = stackName(stage);
      for (const finding of acknowledged(stage)) {
        if (finding.ruleName === 'cloudwatch_log_group_retention_period_check') {
          // A stage setting: acknowledged once for the whole sandbox stack, never for production.
          expect(stage).toBe(Stage.sandbox);
          expect(finding.acknowledgedAt).toBe(stackPath);
          continue;
        }
        for (const construct of finding.violatingConstructs) {
          const onItOrAbove =
            construct.constructPath === finding.acknowledgedAt ||
            construct.constructPath.startsWith(`${finding.acknowledgedAt}/`);
          expect(onItOrAbove, `${finding.ruleName} on ${construct.constructPath}`).toBe(true);
          expect(finding.acknowledgedAt).not.toBe(stackPath);
        }
      }
    },
  );

  it.each(stages)('acknowledges CT.SQS.PR.1 on the five dead-letter-type queues of %s only', (stage) => {
    const queues = acknowledged(stage)
      .filter((finding) => finding.ruleName === 'sqs_dlq_check')
      .flatMap((finding) => finding.violatingConstructs.map((construct) => construct.constructPath));
    expect(queues.sort()).toEqual(
      [
        `${stackName(stage)}/Delivery/DeadLetterQueue/Resource`,
        `${stackName(stage)}/DeliveryPipeline/ReconcilerFailures/Resource`,
        `${stackName(stage)}/DeliveryPipeline/RouterFailures/Resource`,
        `${stackName(stage)}/Mail/DeadLetterQueue/Resource`,
        `${stackName(stage)}/EmailPipeline/SesEventsFailures/Resource`,
      ].sort(),
    );
  });

  it('lists every acknowledged rule, with its Control Tower id, in docs/security.md', () => {
    const security = readFileSync(path.join(import.meta.dirname, '..', '..', 'docs', 'security.md'), 'utf8');
    const findings = stages.flatMap((stage) => acknowledged(stage));
    for (const finding of findings) {
      const controlId = /\[(CT\.[A-Z0-9.-]+)\]/.exec(finding.description)?.[1];
      expect(controlId, finding.description).toBeDefined();
      expect(security).toMatch(
        new RegExp(`\\| ${controlId?.replaceAll('.', '\\.')} \`${finding.ruleName}\` \\|`),
      );
    }
  });
});

describe('ControlTowerRules', () => {
  /** An app with two queues without a dead-letter queue, the first acknowledged. */
  const appWithQueues = (acknowledgeBoth: boolean) => {
    const app = testApp();
    Validations.of(app).addPlugins(new ControlTowerRules());
    const stack = new Stack(app, 'Queues');
    for (const id of ['Acknowledged', 'Other']) {
      const queue = new sqs.Queue(stack, id, { encryption: sqs.QueueEncryption.KMS_MANAGED });
      if (id === 'Acknowledged' || acknowledgeBoth) {
        Validations.of(queue).acknowledge({ id: controlTowerRuleId('sqs_dlq_check'), reason: 'a test' });
      }
    }
    return app;
  };

  it('fails the synthesis on a finding left unacknowledged beside an acknowledged one', () => {
    expect(() => appWithQueues(false).synth()).toThrow(/CT\.SQS\.PR\.1[\s\S]*Queues\/Other/);
  }, 60_000);

  it('passes the synthesis once every finding is acknowledged', () => {
    expect(() => appWithQueues(true).synth()).not.toThrow();
  }, 60_000);
});

describe('controlTowerRules', () => {
  it('reads all the rules the package ships, each with its Control Tower id and resource types', () => {
    const rules = controlTowerRules();
    expect(rules.length).toBeGreaterThan(200);
    for (const rule of rules) {
      expect(rule.id).toMatch(/^CT\.[A-Z0-9-]+\.PR\.\d+$/);
      expect(rule.resourceTypes.length).toBeGreaterThan(0);
    }
    expect(rules.find((rule) => rule.id === 'CT.KMS.PR.3')?.resourceTypes).toEqual(['AWS::KMS::Key']);
  });

  it('hands cfn-guard exactly the rules that evaluate a resource type of the template', () => {
    const rules = controlTowerRules();
    const selected = rulesEvaluating(rules, new Set(['AWS::KMS::Key', 'AWS::SQS::Queue']));
    expect(selected.map((rule) => rule.id).sort()).toEqual([
      'CT.KMS.PR.1',
      'CT.KMS.PR.2',
      'CT.KMS.PR.3',
      'CT.SQS.PR.1',
      'CT.SQS.PR.2',
    ]);
    expect(rulesEvaluating(rules, new Set(['AWS::Backup::BackupVault']))).toEqual([]);
  });
});
