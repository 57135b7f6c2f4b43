import type { Template } from 'aws-cdk-lib/assertions';
import { expect } from 'vitest';
import type { Stage } from '../../functions/config';

export type CfnResource = { [key: string]: any };

export function onlyResource(template: Template, type: string): { id: string; resource: CfnResource } {
  const entries = Object.entries(template.findResources(type));
  expect(entries).toHaveLength(1);
  const [id, resource] = entries[0] as [string, CfnResource];
  return { id, resource };
}

/** The rules of the stage's one web ACL. */
export function webAclRules(template: Template): CfnResource[] {
  return onlyResource(template, 'AWS::WAFv2::WebACL').resource.Properties.Rules as CfnResource[];
}

/** The web ACL's rule of that name; the test fails when there is none. */
export function webAclRule(template: Template, name: string): CfnResource {
  const rule = webAclRules(template).find((candidate) => candidate.Name === name);
  if (rule === undefined) throw new Error(`The web ACL has no rule ${name}`);
  return rule;
}

/**
 * Evaluates a rule's scope-down statement for one URI path as WAF would, for the statements the
 * web ACL uses (NOT and OR of EXACTLY / STARTS_WITH byte matches on the URI path). Any other shape
 * fails the test, so a change of the statement needs a change here too.
 */
export function inScope(statement: CfnResource, uriPath: string): boolean {
  if (statement.NotStatement !== undefined) return !inScope(statement.NotStatement.Statement, uriPath);
  if (statement.OrStatement !== undefined)
    return (statement.OrStatement.Statements as CfnResource[]).some((inner) => inScope(inner, uriPath));
  const match = statement.ByteMatchStatement;
  expect(match?.FieldToMatch).toEqual({ UriPath: {} });
  if (match.PositionalConstraint === 'EXACTLY') return uriPath === match.SearchString;
  if (match.PositionalConstraint === 'STARTS_WITH') return uriPath.startsWith(match.SearchString);
  throw new Error(`Unexpected scope-down statement ${JSON.stringify(statement)}`);
}

/** A request path of the route on the stage's execute-api URL, path parameters filled in. */
export const stagePath = (stage: Stage, path: string): string =>
  `/${stage}${path.replace(/\{[^}]+\}/g, 'x1')}`;
