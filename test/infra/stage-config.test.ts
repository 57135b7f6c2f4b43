import { Token } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { Stage } from '../../functions/config';
import { buildApp, type MerchantPaymentsStack } from '../../lib/stack';
import { committedStageConfig, parseStageConfig, type StageConfigFile } from '../../lib/stage-config';
import { synthesized, templateOf, testApp } from './template';

const stages = Object.values(Stage);

type CfnResource = { [key: string]: any };

/** A sandbox of someone's own: region pinned, account from the credentials, every value unlike the committed. */
const ownSandbox = {
  env: { region: 'eu-central-1' },
  throttle: { rateLimit: 50, burstLimit: 80 },
  publicRouteThrottle: { rateLimit: 5, burstLimit: 10 },
  traceSampling: { reservoirPerSecond: 3, fixedRate: 0.25 },
  logRetentionDays: 7,
  customDomain: {
    domainName: 'api.sandbox.payments.example.com',
    certificateArn: 'arn:aws:acm:eu-central-1:333333333333:certificate/0a1b2c3d-4e5f-6789-abcd-ef0123456789',
    basePath: 'v1',
  },
} satisfies StageConfigFile;

let own: { stack: MerchantPaymentsStack; template: Template };

beforeAll(() => {
  for (const stage of stages) synthesized(stage);
  const config = parseStageConfig('sandbox', ownSandbox, 'own-sandbox.ts');
  const { stack } = buildApp('sandbox', { app: testApp(), config });
  own = { stack, template: Template.fromStack(stack) };
}, 90_000);

function onlyResource(template: Template, type: string): CfnResource {
  const resources = Object.values(template.findResources(type));
  expect(resources).toHaveLength(1);
  return resources[0] as CfnResource;
}

describe('the stack’s environment', () => {
  it.each(stages)('deploys %s only to the account and region its stage file pins', (stage) => {
    const { stack } = synthesized(stage);
    const { env } = committedStageConfig(stage);
    expect(env?.account).toMatch(/^\d{12}$/);
    expect(stack.account).toBe(env?.account);
    expect(stack.region).toBe(env?.region);
  });

  it('keeps production and the sandbox in accounts of their own', () => {
    expect(committedStageConfig('production').env?.account).not.toBe(
      committedStageConfig('sandbox').env?.account,
    );
  });

  it('leaves what the stage file does not pin to the credentials at deploy time', () => {
    expect(own.stack.region).toBe('eu-central-1');
    expect(Token.isUnresolved(own.stack.account)).toBe(true);
  });
});

describe('values from the stage file', () => {
  it('throttles the stage and each public pay route as the file says', () => {
    const { MethodSettings } = onlyResource(own.template, 'AWS::ApiGateway::Stage').Properties;
    const settings = MethodSettings as CfnResource[];
    expect(settings.find((setting) => setting.ResourcePath === '/*')).toMatchObject({
      ThrottlingRateLimit: 50,
      ThrottlingBurstLimit: 80,
    });
    const publicMethods = settings.filter((setting) => setting.ResourcePath !== '/*');
    expect(publicMethods.length).toBeGreaterThan(0);
    for (const setting of publicMethods) {
      expect(setting).toMatchObject({ ThrottlingRateLimit: 5, ThrottlingBurstLimit: 10 });
    }
  });

  it('keeps every log group for the retention the file says', () => {
    const logGroups = Object.values(own.template.findResources('AWS::Logs::LogGroup'));
    // The functions' one log group, the API's access and execution logs, the web ACL's blocked requests.
    expect(logGroups).toHaveLength(4);
    for (const logGroup of logGroups) expect(logGroup.Properties.RetentionInDays).toBe(7);
  });

  it('samples the API for X-Ray as the file says', () => {
    const { SamplingRule } = onlyResource(own.template, 'AWS::XRay::SamplingRule').Properties;
    expect(SamplingRule).toMatchObject({ ReservoirSize: 3, FixedRate: 0.25 });
  });

  it('subscribes no one to the alarm topic when the sandbox file names no subscriber', () => {
    // The one subscription is the SES events function's, to the email events topic.
    const subscriptions = Object.values(own.template.findResources('AWS::SNS::Subscription'));
    expect(subscriptions.map((subscription) => subscription.Properties.Protocol)).toEqual(['lambda']);
  });
});

describe('custom domain', () => {
  it.each(stages)('has none in %s, whose stage file names none', (stage) => {
    expect(committedStageConfig(stage).customDomain).toBeUndefined();
    templateOf(stage).resourceCountIs('AWS::ApiGateway::DomainName', 0);
    templateOf(stage).resourceCountIs('AWS::ApiGateway::BasePathMapping', 0);
  });

  it('serves the stage under the configured name, regional, TLS 1.2, with the file’s certificate', () => {
    const { template } = own;
    const domainIds = Object.keys(template.findResources('AWS::ApiGateway::DomainName'));
    expect(domainIds).toHaveLength(1);
    template.hasResourceProperties('AWS::ApiGateway::DomainName', {
      DomainName: ownSandbox.customDomain.domainName,
      RegionalCertificateArn: ownSandbox.customDomain.certificateArn,
      EndpointConfiguration: { Types: ['REGIONAL'] },
      SecurityPolicy: 'TLS_1_2',
    });
    const restApiId = Object.keys(template.findResources('AWS::ApiGateway::RestApi'))[0];
    const stageId = Object.keys(template.findResources('AWS::ApiGateway::Stage'))[0];
    const mapping = onlyResource(template, 'AWS::ApiGateway::BasePathMapping').Properties;
    expect(mapping).toEqual({
      DomainName: { Ref: domainIds[0] },
      RestApiId: { Ref: restApiId },
      Stage: { Ref: stageId },
      BasePath: 'v1',
    });
  });

  it('outputs the URL under the domain and the name its DNS record points to', () => {
    const outputs = own.template.toJSON().Outputs as CfnResource;
    expect(outputs.CustomDomainUrl.Value).toBe('https://api.sandbox.payments.example.com/v1');
    expect(JSON.stringify(outputs.CustomDomainTarget.Value)).toContain('RegionalDomainName');
  });
});
