import { readFileSync } from 'node:fs';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { Stage } from '../../functions/config';
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
 * esbuild skipped: bundles are the subject of the bench, not of these tests (DESIGN §6).
 */
export function testApp(): App {
  return new App({ context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] } });
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
