import { mkdtempSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, inject } from 'vitest';
import { Stage } from '../../functions/config';
import { liveAliasName } from '../../lib/constructs/safe-rollout';
import { buildApp, type MerchantPaymentsStack } from '../../lib/stack';

export interface SynthesizedStack {
  readonly app: App;
  readonly stack: MerchantPaymentsStack;
  readonly template: Template;
}

const cdkJson = JSON.parse(readFileSync(path.join(import.meta.dirname, '..', '..', 'cdk.json'), 'utf8')) as {
  context?: Record<string, unknown>;
};

/**
 * An app with the feature flags of cdk.json, so tests synthesize what `cdk synth` does, but with
 * esbuild skipped: bundles are the subject of the bench, not of these tests
 * (docs/architecture.md#tests-and-benchmarks). aws-cdk-lib's built-in template validation is off
 * too: cfn-lint checks every stage's template (cfn-lint.test.ts), and the production synth through
 * the CDK app keeps it (docs/decisions/test-suite-speed.md). It synthesizes into the run's scratch
 * folder, which the run removes, not a folder of its own in the system's temporary one.
 */
export function testApp(): App {
  return new App({
    context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] },
    builtinCloudFormationValidation: false,
    outdir: mkdtempSync(path.join(inject('scratchDir'), 'cdk.out-')),
  });
}

const cache = new Map<Stage, SynthesizedStack>();

/**
 * The stack of one stage, synthesized once per test file. `Template.fromStack` runs the cdk-nag
 * validation plugin and throws on any unacknowledged error, so getting a template proves nag passed.
 */
export function synthesized(stage: Stage): SynthesizedStack {
  let entry = cache.get(stage);
  if (entry === undefined) {
    const { app, stack } = buildApp(stage, { app: testApp() });
    entry = { app, stack, template: Template.fromStack(stack) };
    cache.set(stage, entry);
  }
  return entry;
}

export function templateOf(stage: Stage): Template {
  return synthesized(stage).template;
}

/** Full path of every API Gateway resource by logical id, rebuilt from its PathPart and ParentId chain. */
export function resourcePaths(template: Template): Map<string, string> {
  const resources = template.findResources('AWS::ApiGateway::Resource');
  const paths = new Map<string, string>();
  const pathOf = (id: string): string => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const resource = resources[id];
    if (resource === undefined) throw new Error(`No API Gateway resource ${id}`);
    const { ParentId, PathPart } = resource.Properties as { ParentId: { Ref?: string }; PathPart: string };
    // The root resource is referenced with Fn::GetAtt RootResourceId, every other parent with Ref.
    const parentPath = ParentId.Ref === undefined ? '' : pathOf(ParentId.Ref);
    const fullPath = `${parentPath}/${PathPart}`;
    paths.set(id, fullPath);
    return fullPath;
  };
  for (const id of Object.keys(resources)) pathOf(id);
  return paths;
}

/** The logical id of the KMS key behind an alias (`alias/merchant-payments/<stage>/secrets`). */
export function keyIdOfAlias(template: Template, aliasName: string): string {
  const aliases = Object.values(
    template.findResources('AWS::KMS::Alias', { Properties: { AliasName: aliasName } }),
  );
  if (aliases.length !== 1) throw new Error(`expected one alias ${aliasName}, found ${aliases.length}`);
  return (aliases[0] as { Properties: { TargetKeyId: { 'Fn::GetAtt': [string, string] } } }).Properties
    .TargetKeyId['Fn::GetAtt'][0];
}

/** The key that seals webhook signing secrets. */
export const secretsKeyId = (template: Template, stage: Stage): string =>
  keyIdOfAlias(template, `alias/merchant-payments/${stage}/secrets`);

/** The key of the data at rest: table, queues, alarm topic, log groups. */
export const dataKeyId = (template: Template, stage: Stage): string =>
  keyIdOfAlias(template, `alias/merchant-payments/${stage}/data`);

/**
 * The logical id of the `live` alias of the function with logical id `functionId`: callers of a
 * rolled-out function invoke the alias (`lib/constructs/safe-rollout.ts`).
 */
export function liveAliasId(template: Template, functionId: string): string {
  const aliases = Object.entries(
    template.findResources('AWS::Lambda::Alias', {
      Properties: { FunctionName: { Ref: functionId }, Name: liveAliasName },
    }),
  );
  if (aliases.length !== 1) throw new Error(`${functionId} has ${aliases.length} live aliases`);
  return (aliases[0] as [string, unknown])[0];
}

/**
 * How long a file's `beforeAll` may take to synthesize both stages: about 25 s on an idle 2-core
 * machine, and several times that while other test files synthesize too.
 */
export const synthesisTimeoutMs = 240_000;

/**
 * Synthesizes every stage once, before the file's first test. The first synthesis loads most of
 * aws-cdk-lib; on a busy 2-core machine that can exceed a test's default 5 s, so it runs up front,
 * with room to spare.
 */
export function synthesizeEveryStageFirst(): void {
  beforeAll(() => {
    for (const stage of Object.values(Stage)) synthesized(stage);
  }, synthesisTimeoutMs);
}
