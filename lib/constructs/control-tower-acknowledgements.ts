import { type Stack, Validations } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { controlTowerRuleId } from '../control-tower-rules';

export interface ControlTowerAcknowledgementsProps {
  readonly logRetention: RetentionDays;
}

/**
 * The Control Tower findings that follow from the stack's design rather than from one resource
 * (docs/security.md lists every acknowledged finding): the sandbox's log retention, which is a
 * stage setting.
 */
export function acknowledgeControlTowerFindings(
  stack: Stack,
  props: ControlTowerAcknowledgementsProps,
): void {
  if (props.logRetention < RetentionDays.ONE_YEAR) {
    Validations.of(stack).acknowledge({
      id: controlTowerRuleId('cloudwatch_log_group_retention_period_check'),
      reason:
        'CT.CLOUDWATCH.PR.2: this stage keeps its logs for less than a year by its settings. Its traffic is ' +
        'merchants’ tests with test cards; production, which carries real payments, keeps them a year.',
    });
  }
}
