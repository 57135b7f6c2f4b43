import { ArnFormat, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { RouteDefinition } from '../../functions/route-definition';
import type { ProcessorConfig } from '../stage-config';
import { asNagNames } from './nag-names';

type StripeProcessor = Extract<ProcessorConfig, { kind: 'stripe' }>;

/**
 * The Stripe section of a stage whose route talks to Stripe (it calls the processor, or takes
 * Stripe's signed events), or undefined: such a route's function is given the two secrets' names
 * and may read them, and no other function may (docs/processor.md).
 */
export function usesStripe(
  route: Pick<RouteDefinition, 'callsProcessor' | 'signedByProcessor'>,
  processor: ProcessorConfig | undefined,
): StripeProcessor | undefined {
  if (processor?.kind !== 'stripe') return undefined;
  return route.callsProcessor === true || route.signedByProcessor !== undefined ? processor : undefined;
}

/**
 * Lets `role` read the values of the stage's two Stripe secrets, and nothing else of Secrets
 * Manager: `secretsmanager:GetSecretValue` on each secret's ARN, which Secrets Manager ends with a
 * hyphen and six random characters after the name. The acknowledgement of that wildcard names the
 * two ARNs, so any other wildcard on the role is still reported.
 */
export function grantStripeSecretsRead(role: iam.Role, stripe: StripeProcessor): void {
  const stack = Stack.of(role);
  const arnOf = (name: string) =>
    stack.formatArn({
      service: 'secretsmanager',
      resource: 'secret',
      resourceName: `${name}-??????`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
  const resources = [arnOf(stripe.secretKeySecretName), arnOf(stripe.webhookSigningSecretName)];
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources }),
  );
  Validations.of(role).acknowledge(
    ...resources.map((resource) => ({
      id: `AwsSolutions-IAM5[Resource::${asNagNames(stack.resolve(resource))}]`,
      reason:
        'Secrets Manager appends six random characters to a secret name in its ARN; the stage file names the ' +
        'secret, so `-??????` stands for exactly those six characters of this one secret.',
    })),
  );
}
