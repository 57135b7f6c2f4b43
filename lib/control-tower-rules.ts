import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { CfnGuardValidator } from '@cdklabs/cdk-validator-cfnguard';
import type {
  IPolicyValidationContext,
  IPolicyValidationPlugin,
  PolicyValidationPluginReport,
} from 'aws-cdk-lib';

/**
 * The plugin's name, which prefixes the id of an acknowledged finding:
 * `Validations.of(resource).acknowledge({ id: controlTowerRuleId('sqs_dlq_check'), reason })`.
 */
export const controlTowerPluginName = 'cdk-validator-cfnguard';

/** The acknowledgement id of a Control Tower guard rule, by the rule name its findings carry. */
export function controlTowerRuleId(ruleName: string): string {
  return `${controlTowerPluginName}::${ruleName}`;
}

export interface ControlTowerRule {
  /** Control Tower's id, e.g. `CT.KMS.PR.3`. */
  readonly id: string;
  readonly guardFile: string;
  readonly resourceTypes: readonly string[];
}

const rulesRoot = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@cdklabs/cdk-validator-cfnguard')),
  '..',
  'rules',
  'control-tower',
);

/**
 * Every Control Tower proactive control the package ships, with the resource types it evaluates
 * (from its metadata file, beside the guard file under the same service folder and name).
 */
export function controlTowerRules(): ControlTowerRule[] {
  const guardRoot = path.join(rulesRoot, 'cfn-guard');
  return readdirSync(guardRoot).flatMap((service) =>
    readdirSync(path.join(guardRoot, service)).map((file) => {
      const name = path.basename(file, '.guard');
      const metadataFile = path.join(rulesRoot, 'metadata', service, `${name}.metadata.json`);
      const metadata = JSON.parse(readFileSync(metadataFile, 'utf8')) as {
        Id: string;
        EvaluatedResourceTypes: string[];
      };
      return {
        id: metadata.Id,
        guardFile: path.join(guardRoot, service, file),
        resourceTypes: metadata.EvaluatedResourceTypes,
      };
    }),
  );
}

/** The rules that evaluate at least one of `resourceTypes`; every other rule would only skip. */
export function rulesEvaluating(rules: readonly ControlTowerRule[], resourceTypes: ReadonlySet<string>) {
  return rules.filter((rule) => rule.resourceTypes.some((type) => resourceTypes.has(type)));
}

function resourceTypesOf(templatePaths: readonly string[]): Set<string> {
  const types = new Set<string>();
  for (const templatePath of templatePaths) {
    const template = JSON.parse(readFileSync(templatePath, 'utf8')) as {
      Resources?: Record<string, { Type: string }>;
    };
    for (const resource of Object.values(template.Resources ?? {})) types.add(resource.Type);
  }
  return types;
}

/**
 * The Control Tower proactive controls as a CDK validation plugin, run by cfn-guard from
 * `@cdklabs/cdk-validator-cfnguard`. It hands cfn-guard only the rules that evaluate a resource type
 * the templates contain: cfn-guard reads the whole template once per rule file (about half a second
 * each for this stack), and the other ~215 of the 237 rules would only report SKIP.
 */
export class ControlTowerRules implements IPolicyValidationPlugin {
  readonly name = controlTowerPluginName;

  validate(context: IPolicyValidationContext): PolicyValidationPluginReport {
    const rules = rulesEvaluating(controlTowerRules(), resourceTypesOf(context.templatePaths));
    if (rules.length === 0) return { success: true, violations: [] };
    const guard = new CfnGuardValidator({
      controlTowerRulesEnabled: false,
      rules: rules.map((rule) => rule.guardFile),
    });
    const report = guard.validate(context);
    // cfn-guard's findings carry no severity, and CDK counts a finding without one as no error once
    // any other finding of the report is acknowledged: an unacknowledged one would then pass.
    return {
      ...report,
      violations: report.violations.map((violation) => ({
        ...violation,
        severity: violation.severity ?? 'error',
      })),
    };
  }
}
