import { describe, expect, it } from 'vitest';
import { Stage } from '../../functions/config';
import { committedStageConfig } from '../../lib/stage-config';
import { synthesized, synthesizeEveryStageFirst } from './template';

/*
 * Production's Stripe secrets (docs/processor.md): the functions of the routes that talk to Stripe
 * get the two secrets' names, never a value, and may read exactly those two secrets; no other
 * function may read any secret, and the sandbox, which keeps its simulator, has none of it.
 */

synthesizeEveryStageFirst();

type Resources = Record<string, { Properties: Record<string, any> }>;

/** Each function's logical id and environment, and what its role may do with Secrets Manager. */
function stripeAccess(stage: Stage) {
  const json = synthesized(stage).template.toJSON() as { Resources: Resources };
  const resources = Object.entries(json.Resources);
  const secretsStatements = (roleId: string) =>
    resources
      .filter(([, resource]) => (resource.Properties?.Roles ?? []).some((role: any) => role?.Ref === roleId))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument?.Statement ?? [])
      .filter((statement: any) =>
        [statement.Action].flat().some((action: string) => action.startsWith('secretsmanager:')),
      );
  return resources
    .filter(([, resource]) => (resource as any).Type === 'AWS::Lambda::Function')
    .map(([id, fn]) => ({
      id,
      variables: (fn.Properties.Environment?.Variables ?? {}) as Record<string, unknown>,
      statements: secretsStatements(fn.Properties.Role?.['Fn::GetAtt']?.[0]),
    }));
}

describe("production's Stripe secrets", () => {
  it('go by name to the functions that talk to Stripe, which may read those two secrets only', () => {
    const processor = committedStageConfig('production').processor;
    if (processor?.kind !== 'stripe') throw new Error('stages/production.ts names no Stripe secrets');
    const functions = stripeAccess(Stage.production);
    const withNames = functions.filter((fn) => fn.variables.STRIPE_SECRET_KEY_SECRET_NAME !== undefined);
    // Linking an account, Stripe's events, and the pay route (which will create Checkout Sessions).
    expect(withNames.length).toBeGreaterThanOrEqual(2);
    for (const fn of functions) {
      const named = withNames.includes(fn);
      expect(fn.statements.length > 0, fn.id).toBe(named);
      if (!named) continue;
      expect(fn.variables).toMatchObject({
        STRIPE_SECRET_KEY_SECRET_NAME: processor.secretKeySecretName,
        STRIPE_WEBHOOK_SECRET_SECRET_NAME: processor.webhookSigningSecretName,
      });
      expect(fn.variables).not.toHaveProperty('STRIPE_SECRET_KEY');
      expect(fn.variables).not.toHaveProperty('STRIPE_WEBHOOK_SECRET');
      expect(fn.statements).toHaveLength(1);
      const [statement] = fn.statements;
      expect(statement.Action).toBe('secretsmanager:GetSecretValue');
      const arns = JSON.stringify(statement.Resource);
      for (const name of [processor.secretKeySecretName, processor.webhookSigningSecretName]) {
        expect(arns).toContain(`:secret:${name}-??????`);
      }
      expect(statement.Resource).toHaveLength(2);
    }
  });

  it('are nowhere in the sandbox', () => {
    for (const fn of stripeAccess(Stage.sandbox)) {
      expect(fn.statements, fn.id).toEqual([]);
      expect(
        Object.keys(fn.variables).filter((name) => name.startsWith('STRIPE_')),
        fn.id,
      ).toEqual([]);
    }
  });
});
