import { App, Stage as CdkStage, Duration, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import * as codebuild from 'aws-cdk-lib/aws-codebuild';
import {
  CodeBuildStep,
  CodePipeline,
  CodePipelineSource,
  type IFileSetProducer,
  ManualApprovalStep,
  ShellStep,
} from 'aws-cdk-lib/pipelines';
import { AwsSolutionsChecks, PCIDSS321Checks } from 'cdk-nag';
import type { Construct } from 'constructs';
import type { Stage } from '../functions/config';
import type { ReleasePipelineSettings } from './release-pipeline-config';
import { MerchantPaymentsStack, type MerchantPaymentsStackProps } from './stack';
import { releasePipelineName, stackName } from './stack-name';
import { environmentOf, type StageConfig } from './stage-config';

/** The CDK CLI the pipeline synthesizes and deploys with: the one `package.json` pins. */
export const pipelineCliVersion = '2.1148.1';

/** One stage of the service as the pipeline deploys it. */
export class ServiceStage extends CdkStage {
  readonly stack: MerchantPaymentsStack;

  constructor(scope: Construct, id: string, props: MerchantPaymentsStackProps) {
    const env = environmentOf(props.config);
    super(scope, id, env === undefined ? {} : { env });
    // The same stack name as a `cdk deploy -c stage=…`, so the pipeline takes over a stage an
    // operator deployed by hand rather than creating a second one beside it.
    this.stack = new MerchantPaymentsStack(this, 'Service', { ...props, stackName: stackName(props.stage) });
  }
}

export interface ReleasePipelineStackProps extends StackProps {
  readonly settings: ReleasePipelineSettings;
  /** The checked files of the two stages, each pinning its account and region. */
  readonly stages: Readonly<Record<Stage, StageConfig>>;
}

/** Steps run in CodeBuild: the machine the suite's `.ci/run` expects (Java 17+, Node from npm). */
const buildEnvironment: codebuild.BuildEnvironment = {
  buildImage: codebuild.LinuxBuildImage.STANDARD_7_0,
  computeType: codebuild.ComputeType.MEDIUM,
};

/**
 * The release pipeline (`docs/operations.md#the-release-pipeline`): the source → one synthesis →
 * the test suite (which runs cdk-nag and the Control Tower rules over both stages) → sandbox →
 * its smoke test → a person's approval → production → its smoke test. It updates itself first
 * when a commit changes it.
 */
export class ReleasePipelineStack extends Stack {
  readonly pipeline: CodePipeline;

  constructor(scope: Construct, id: string, props: ReleasePipelineStackProps) {
    const { settings, stages, ...stackProps } = props;
    super(scope, id, { env: settings.env, ...stackProps });
    const source = fileSet(
      CodePipelineSource.connection(settings.repository, settings.branch, {
        connectionArn: settings.connectionArn,
      }),
    );

    this.pipeline = new CodePipeline(this, 'Pipeline', {
      pipelineName: releasePipelineName,
      // The stages may live in other accounts than the pipeline: artifacts are encrypted with a
      // key those accounts' deploy roles are given.
      crossAccountKeys: true,
      enableKeyRotation: true,
      cliVersion: pipelineCliVersion,
      // One CodeBuild project publishes every file asset: one per function and stage would be
      // about a hundred projects, each a resource of this stack.
      publishAssetsInParallel: false,
      codeBuildDefaults: { buildEnvironment, timeout: Duration.minutes(60) },
      // Synthesized once: every later step deploys this cloud assembly, never a second synth.
      synth: fileSet(
        new ShellStep('Synth', {
          input: source,
          commands: ['npm ci --no-audit --no-fund', 'npx cdk synth --app "npx tsx bin/pipeline.ts"'],
          primaryOutputDirectory: 'cdk.out',
        }),
      ),
    });

    const tests = new CodeBuildStep('Tests', {
      input: source,
      // `.ci/run` installs what the suite needs and runs it: unit, integration, end-to-end and
      // browser tests, cdk-nag and the Control Tower rules over both stages, cfn-lint.
      commands: ['.ci/run'],
    });
    const smoke = (stage: Stage, service: ServiceStage) =>
      new CodeBuildStep(`SmokeTest-${stage}`, {
        input: source,
        envFromCfnOutputs: { SMOKE_BASE_URL: service.stack.apiUrlOutput },
        buildEnvironment: {
          environmentVariables: {
            SMOKE_API_KEY: {
              type: codebuild.BuildEnvironmentVariableType.SECRETS_MANAGER,
              value: settings.smoke[stage].keySecret,
            },
          },
        },
        commands: [
          'npm ci --no-audit --no-fund',
          [
            'npm run -s smoke -- --base-url "$SMOKE_BASE_URL"',
            `--merchant ${settings.smoke[stage].merchantId}`,
            // Only the sandbox pays an invoice; production's smoke test reads and is refused only.
            ...(stage === 'sandbox'
              ? [`--receiver-url ${settings.sandboxReceiverUrl}`, '--receiver-host 0.0.0.0']
              : []),
          ].join(' '),
        ],
      });

    const sandbox = new ServiceStage(this, 'Sandbox', { stage: 'sandbox', config: stages.sandbox });
    this.pipeline.addStage(sandbox, { pre: [tests], post: [smoke('sandbox', sandbox)] });
    const production = new ServiceStage(this, 'Production', {
      stage: 'production',
      config: stages.production,
    });
    this.pipeline.addStage(production, {
      pre: [
        new ManualApprovalStep('PromoteToProduction', {
          comment: 'Sandbox is deployed and its smoke test passed. Promote this commit to production?',
        }),
      ],
      post: [smoke('production', production)],
    });
    this.pipeline.buildPipeline();
    acknowledgePipelineFindings(this);
  }
}

/**
 * The release pipeline's app, checked by the same cdk-nag packs as `cdk deploy`'s
 * (`lib/stack.ts` `buildApp`): the service stages and the pipeline stack itself.
 */
export function buildReleasePipelineApp(
  props: ReleasePipelineStackProps,
  options: { readonly app?: App } = {},
): { app: App; stack: ReleasePipelineStack } {
  const app = options.app ?? new App();
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new PCIDSS321Checks(app));
  const stack = new ReleasePipelineStack(app, releasePipelineName, props);
  return { app, stack };
}

/**
 * The kinds of cdk-nag findings in the resources CDK Pipelines generates for the pipeline itself
 * (not the service stages, which keep their own acknowledgements), each with why it stands.
 */
const reviewedPipelineFindings: Readonly<Record<string, string>> = {
  'AwsSolutions-IAM5':
    'The roles CDK Pipelines generates for its own steps: object wildcards on its own artifacts bucket, ' +
    "log groups and report groups named after its own CodeBuild projects, and the bootstrap stack's " +
    'deploy and file-publishing roles (cdk-hnb659fds-*) it assumes. None reaches a service resource.',
  'PCI.DSS.321-IAMNoInlinePolicy':
    "Each generated role's grants sit in one policy of its own, attached to that role only; a managed " +
    'policy would hold the same statements while being attachable elsewhere.',
  'PCI.DSS.321-CodeBuildProjectSourceRepoUrl':
    'The projects take their source from the pipeline, which reads the repository through a CodeConnections ' +
    'connection; no project holds a repository URL or credentials of its own.',
  'AwsSolutions-S1':
    "The pipeline's artifacts bucket holds build outputs of commits that stay in the repository; CloudTrail " +
    'records the pipeline’s and the deploy roles’ calls, so access logs would add nothing to trace.',
  'PCI.DSS.321-S3BucketLoggingEnabled': 'As AwsSolutions-S1: transient, KMS-encrypted build artifacts.',
  'PCI.DSS.321-S3BucketVersioningEnabled':
    'Each pipeline run writes new artifact objects under new keys; the commit in the repository is the version.',
  'PCI.DSS.321-S3BucketReplicationEnabled':
    'Build artifacts are rebuilt from the repository by re-running the pipeline; a replica would protect nothing.',
};

/**
 * Acknowledges, on the pipeline construct, each cdk-nag finding of a reviewed kind, by its exact
 * id. A finding of any other kind stays, and fails the synthesis.
 */
function acknowledgePipelineFindings(stack: ReleasePipelineStack): void {
  const scope = stack.pipeline;
  for (const pack of [new AwsSolutionsChecks(), new PCIDSS321Checks()]) {
    for (const violation of pack.validateScope(scope).violations) {
      const reason = reviewedPipelineFindings[violation.ruleName.replace(/\[.*\]$/, '')];
      if (reason !== undefined) Validations.of(scope).acknowledge({ id: violation.ruleName, reason });
    }
  }
}

/**
 * A step as the file-set producer it is. CDK declares `primaryOutput` as `FileSet | undefined` on
 * the classes and optional on the interface, which `exactOptionalPropertyTypes` tells apart.
 */
function fileSet(step: ShellStep | CodePipelineSource): IFileSetProducer {
  return step as IFileSetProducer;
}
