import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildReleasePipelineApp,
  pipelineCliVersion,
  type ReleasePipelineStack,
} from '../../lib/release-pipeline';
import {
  committedReleasePipelineConfig,
  parseReleasePipelineConfig,
  pinnedForPipeline,
} from '../../lib/release-pipeline-config';
import { stackName } from '../../lib/stack-name';
import { committedStageConfig } from '../../lib/stage-config';
import { synthesisTimeoutMs, testApp } from './template';

type CfnResource = { [key: string]: any };

const settings = {
  env: { account: '222222222222', region: 'eu-west-1' },
  connectionArn:
    'arn:aws:codeconnections:eu-west-1:222222222222:connection/0f0e0d0c-1111-2222-3333-444455556666',
  repository: 'example/merchant-payments',
  branch: 'main',
  smoke: {
    sandbox: { merchantId: 'mer_01jq0000000000000000000000', keySecret: 'merchant-payments/sandbox/smoke' },
    production: {
      merchantId: 'mer_01jq0000000000000000000001',
      keySecret: 'merchant-payments/production/smoke',
    },
  },
  sandboxReceiverUrl: 'https://smoke-relay.example.com/webhooks',
} as const;

let stack: ReleasePipelineStack;
let template: Template;

beforeAll(() => {
  ({ stack } = buildReleasePipelineApp(
    {
      settings,
      stages: {
        sandbox: {
          ...committedStageConfig('sandbox'),
          env: { account: '333333333333', region: 'eu-west-1' },
        },
        production: committedStageConfig('production'),
      },
    },
    { app: testApp() },
  ));
  // `Template.fromStack` runs cdk-nag over the whole app: getting a template proves it passed.
  template = Template.fromStack(stack);
}, synthesisTimeoutMs);

function pipelineStages(): { name: string; actions: CfnResource[] }[] {
  const pipelines = Object.values(template.findResources('AWS::CodePipeline::Pipeline'));
  expect(pipelines).toHaveLength(1);
  return (pipelines[0] as CfnResource).Properties.Stages.map((stage: CfnResource) => ({
    name: stage.Name,
    actions: [...stage.Actions].sort((a: CfnResource, b: CfnResource) => a.RunOrder - b.RunOrder),
  }));
}

/** The buildspec of the CodeBuild project an action runs. */
function buildSpecOf(action: CfnResource): string {
  const projectId = action.Configuration.ProjectName.Ref as string;
  return template.toJSON().Resources[projectId].Properties.Source.BuildSpec as string;
}

describe('release pipeline', () => {
  it('runs source, one synthesis, its own update, assets, sandbox, then production', () => {
    expect(pipelineStages().map((stage) => stage.name)).toEqual([
      'Source',
      'Build',
      'UpdatePipeline',
      'Assets',
      'Sandbox',
      'Production',
    ]);
  });

  it('reads the repository through the configured connection', () => {
    const [source] = pipelineStages();
    expect(source?.actions).toHaveLength(1);
    expect(source?.actions[0]).toMatchObject({
      ActionTypeId: { Category: 'Source', Provider: 'CodeStarSourceConnection' },
      Configuration: {
        ConnectionArn: settings.connectionArn,
        FullRepositoryId: settings.repository,
        BranchName: settings.branch,
      },
    });
  });

  it('synthesizes once, with the pinned CLI, and every deploy uses that cloud assembly', () => {
    const build = pipelineStages().find((stage) => stage.name === 'Build');
    expect(build?.actions.map((action) => action.Name)).toEqual(['Synth']);
    const spec = buildSpecOf(build?.actions[0] as CfnResource);
    expect(spec).toContain('npx cdk synth --app \\"npx tsx bin/pipeline.ts\\"');
    const selfMutation = pipelineStages().find((stage) => stage.name === 'UpdatePipeline');
    expect(buildSpecOf(selfMutation?.actions[0] as CfnResource)).toContain(`aws-cdk@${pipelineCliVersion}`);
  });

  it('tests before it deploys the sandbox, and smoke-tests the sandbox after', () => {
    const sandbox = pipelineStages().find((stage) => stage.name === 'Sandbox');
    expect(sandbox?.actions.map((action) => [action.Name, action.RunOrder])).toEqual([
      ['Tests', 1],
      [`${stackName('sandbox')}.Prepare`, 2],
      [`${stackName('sandbox')}.Deploy`, 3],
      ['SmokeTest-sandbox', 4],
    ]);
    const [tests, , , smoke] = sandbox?.actions ?? [];
    expect(buildSpecOf(tests as CfnResource)).toContain('.ci/run');
    const smokeSpec = buildSpecOf(smoke as CfnResource);
    expect(smokeSpec).toContain('npm run -s smoke -- --base-url');
    expect(smokeSpec).toContain(settings.smoke.sandbox.merchantId);
    expect(smokeSpec).toContain(`--receiver-url ${settings.sandboxReceiverUrl}`);
  });

  it('waits for a person’s approval before production, and smoke-tests production after', () => {
    const production = pipelineStages().find((stage) => stage.name === 'Production');
    expect(
      production?.actions.map((action) => [action.Name, action.RunOrder, action.ActionTypeId.Provider]),
    ).toEqual([
      ['PromoteToProduction', 1, 'Manual'],
      [`${stackName('production')}.Prepare`, 2, 'CloudFormation'],
      [`${stackName('production')}.Deploy`, 3, 'CloudFormation'],
      ['SmokeTest-production', 4, 'CodeBuild'],
    ]);
    const smokeSpec = buildSpecOf(production?.actions[3] as CfnResource);
    expect(smokeSpec).toContain(settings.smoke.production.merchantId);
    expect(smokeSpec).not.toContain('--receiver-url');
  });

  it('deploys each stage to its own account and region, under the stack name a hand deploy uses', () => {
    const deploys = pipelineStages()
      .flatMap((stage) => stage.actions)
      .filter((action) => action.Name.endsWith('.Prepare'));
    // The bootstrap roles of each stage's account and region deploy it.
    const roles = deploys.map((action) => JSON.stringify([action.RoleArn, action.Configuration.RoleArn]));
    expect(roles[0]).toContain('deploy-role-333333333333-eu-west-1');
    expect(roles[0]).toContain('cfn-exec-role-333333333333-eu-west-1');
    expect(roles[1]).toContain('deploy-role-111111111111-eu-west-1');
    expect(roles[1]).toContain('cfn-exec-role-111111111111-eu-west-1');
    expect(deploys.map((action) => action.Configuration.StackName)).toEqual([
      stackName('sandbox'),
      stackName('production'),
    ]);
  });

  it('gives each smoke test its stage’s key from Secrets Manager, never in the buildspec', () => {
    for (const stage of ['sandbox', 'production'] as const) {
      const projects = Object.values(template.findResources('AWS::CodeBuild::Project')).filter((project) =>
        String(project.Properties.Source.BuildSpec).includes(settings.smoke[stage].merchantId),
      );
      expect(projects).toHaveLength(1);
      expect((projects[0] as CfnResource).Properties.Environment.EnvironmentVariables).toContainEqual({
        Name: 'SMOKE_API_KEY',
        Type: 'SECRETS_MANAGER',
        Value: settings.smoke[stage].keySecret,
      });
    }
  });
});

describe('release pipeline file', () => {
  it('checks the committed stages/pipeline.ts, and both stage files pin where they deploy', () => {
    const committed = committedReleasePipelineConfig();
    expect(committed.env.account).toMatch(/^\d{12}$/);
    for (const stage of ['sandbox', 'production'] as const) {
      const config = committedStageConfig(stage);
      expect(pinnedForPipeline(stage, config, `stages/${stage}.ts`)).toBe(config);
    }
  });

  it('refuses a file with every problem on one line, naming the file and each field', () => {
    const bad = {
      ...committedReleasePipelineConfig(),
      env: { account: '12345', region: 'eu-west-1' },
      repository: 'no-owner',
      smoke: {
        ...committedReleasePipelineConfig().smoke,
        production: { merchantId: 'cust_1', keySecret: 'k' },
      },
      extra: true,
    };
    let message = '';
    try {
      parseReleasePipelineConfig(bad, 'stages/pipeline.ts');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).not.toContain('\n');
    expect(message).toMatch(/^stages\/pipeline\.ts: /);
    expect(message).toContain('env.account must be a 12-digit AWS account id');
    expect(message).toContain('repository must be owner/name');
    expect(message).toContain('smoke.production.merchantId must be a merchant id');
    expect(message).toContain('extra is not a field of the pipeline file');
  });

  it('refuses to deploy a stage whose file leaves its account or region to the credentials', () => {
    const unpinned = { ...committedStageConfig('sandbox'), env: { region: 'eu-west-1' } };
    expect(() => pinnedForPipeline('sandbox', unpinned, 'stages/sandbox.ts')).toThrow(
      'stages/sandbox.ts: env.account and env.region are required for the release pipeline to deploy sandbox',
    );
  });
});
