import type { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { Stage } from '../../functions/config';
import { routeList, routesOfStage } from '../../functions/routes';
import { synthesizeEveryStageFirst, templateOf } from './template';

const stages = Object.values(Stage);

synthesizeEveryStageFirst();

/**
 * CloudFormation refuses a template of more than 500 resources; the guard keeps 100 of them for
 * what the next features add, and today's stacks sit at 395 or fewer: the customer emails' queues,
 * functions, configuration set, topic and alarms took the sandbox from 349 to 371, and the two
 * routes of an invoice's emails to 381, the two processor-account routes to 390 (production 388 with
 * Stripe's webhook), a merchant's refund route to 394 (production 392, 395 with Stripe's three
 * alarms; docs/decisions/room-in-the-stacks.md).
 */
const guardCeiling = 400;
const todaysCeiling = 395;

function resourceCount(template: Template): number {
  return Object.keys(template.toJSON().Resources).length;
}

function countOf(template: Template, type: string): number {
  return Object.keys(template.findResources(type)).length;
}

describe.each(stages)('resources of the %s stack', (stage) => {
  it(`stays within ${guardCeiling} resources, 100 under CloudFormation’s 500`, () => {
    expect(resourceCount(templateOf(stage))).toBeLessThanOrEqual(guardCeiling);
  });

  it(`holds ${todaysCeiling} resources or fewer today`, () => {
    expect(resourceCount(templateOf(stage))).toBeLessThanOrEqual(todaysCeiling);
  });

  it('gives a route no log group and no Lambda permission of its own', () => {
    const template = templateOf(stage);
    expect(countOf(template, 'AWS::Lambda::Function')).toBeGreaterThan(
      routesOfStage(routeList, stage).length,
    );
    // The functions' one log group, the API's access and execution logs, the web ACL's blocked requests.
    expect(countOf(template, 'AWS::Logs::LogGroup')).toBe(4);
    // API Gateway invokes as its invoke role; the two permissions are the reconciler's schedule
    // and the SES events topic, which only a resource policy lets invoke a function.
    const permissions = Object.values(template.findResources('AWS::Lambda::Permission'));
    expect(permissions.map((permission) => permission.Properties.Principal).sort()).toEqual([
      'events.amazonaws.com',
      'sns.amazonaws.com',
    ]);
  });
});
