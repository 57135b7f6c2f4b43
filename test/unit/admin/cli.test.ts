import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  APIGatewayClient,
  FlushStageAuthorizersCacheCommand,
  GetRestApisCommand,
} from '@aws-sdk/client-api-gateway';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helpText } from '../../../tools/admin/cli';
import { ExitCode } from '../../../tools/cli/command-failure';
import { runAdminInProcess } from '../../support/admin-in-process';
import { mockAwsClient } from '../../support/aws-client-mocks';
import { missingFrom } from '../../support/text-parts';

const dynamodb = mockAwsClient(DynamoDBDocumentClient);
const apigateway = mockAwsClient(APIGatewayClient);
const merchantId = 'mer_01h455vb4pex5vsknk084sn02q';
let stateDir: string;

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'admin-cli-'));
  const runtime = {
    baseUrl: 'http://127.0.0.1:3000',
    stage: 'sandbox',
    dynamodbEndpoint: 'http://127.0.0.1:8000',
    tableName: 'local-table',
    merchantId,
    apiKey: `merchant_sbx0123456789_${'s'.repeat(43)}`,
  };
  await writeFile(join(stateDir, 'runtime.json'), JSON.stringify(runtime));
  await writeFile(join(stateDir, 'dynamodb.key'), `${'0'.repeat(32)}\n`, { mode: 0o600 });
});
afterAll(() => rm(stateDir, { recursive: true, force: true }));

function admin(args: string[], env: Record<string, string> = { LOCAL_STATE_DIR: stateDir }) {
  return runAdminInProcess(args, env);
}

describe('runAdmin --help', () => {
  it.each([[['--help']], [['-h']], [['keys', 'create', '--help']], [['--nonsense', '--help']]])(
    'prints the usage on stdout and exits 0 for %j',
    async (args) => {
      const result = await admin(args);
      expect(result).toEqual({ code: ExitCode.ok, stdout: helpText, stderr: '' });
    },
  );

  it('lists every command docs/admin-cli.md documents', () => {
    const commands = ['merchants create', 'keys create', 'keys list', 'keys revoke', 'keys rotate'];
    expect(missingFrom(helpText, commands)).toEqual([]);
  });

  it('lists the operator commands for deliveries, queues, the reconciler and the router', () => {
    const commands = [
      'deliveries show',
      'endpoints failures',
      'queues redrive',
      'reconciler run',
      'router replay',
    ];
    expect(missingFrom(helpText, commands)).toEqual([]);
  });
});

describe('runAdmin usage errors', () => {
  it.each([
    [[], 'missing command'],
    [['shops', 'create'], 'unknown command "shops"'],
    [['keys'], 'keys needs one of: create, list, revoke, rotate'],
    [['keys', 'delete', '--local'], 'unknown command "keys delete"'],
    [['keys', 'list', 'extra', '--merchant', merchantId, '--local'], 'unexpected argument "extra"'],
    [['keys', 'list', '--merchant', merchantId, '--local', '--verbose'], 'unknown option --verbose'],
    [['keys', 'list', '--merchant', merchantId, '--local', '-v'], 'unknown option -v'],
    // A misspelled option with a value is named as the option, not as a stray argument.
    [['keys', 'list', '--merchnt', merchantId, '--local'], 'unknown option --merchnt'],
    [
      ['keys', 'revoke', '--key', 'nope', '--local'],
      '--key must be a key prefix like merchant_sbx0123456789, not "nope"',
    ],
    [
      ['keys', 'list', '--merchant', merchantId, '--local', '--name', 'x'],
      '--name is not an option of keys list',
    ],
    [['keys', 'list', '--local'], 'keys list needs --merchant'],
    [['keys', 'rotate', '--merchant', merchantId, '--local'], 'keys rotate needs --expire-old-in'],
    [['merchants', 'create', '--local', '--name'], '--name needs a value'],
    [['merchants', 'create', '--name', '--local'], '--name needs a value'],
    [['merchants', 'create', '--local', '--name', ' '], '--name must not be empty'],
    [['merchants', 'create', '--local', '--name=a', '--name=b'], '--name is given more than once'],
    [['merchants', 'create', '--local', '--name', 'a', '--json=yes'], '--json takes no value'],
    [['merchants', 'create', '--name', 'a'], 'choose a target: --local or --stage sandbox|production'],
    [
      ['merchants', 'create', '--name', 'a', '--local', '--stage', 'sandbox'],
      'give either --local or --stage',
    ],
    [['merchants', 'create', '--name', 'a', '--stage', 'staging'], '--stage must be sandbox or production'],
    [['merchants', 'create', '--name', 'a', '--local', '--table', 't'], '--table applies only with --stage'],
    [
      ['keys', 'create', '--merchant', merchantId, '--local', '--expires-in', '1 day'],
      '--expires-in: "1 day" is not a duration like 24h, 30m, 7d',
    ],
    [
      ['keys', 'rotate', '--merchant', merchantId, '--local', '--expire-old-in', '9999d'],
      '--expire-old-in: "9999d" is longer than the maximum of 3650d',
    ],
    [
      ['deliveries', 'show', '--endpoint', 'whk_1', '--merchant', merchantId, '--local'],
      'deliveries show needs --delivery',
    ],
    [
      ['deliveries', 'show', '--delivery', 'whkdel_1', '--merchant', merchantId, '--local'],
      'deliveries show needs --endpoint',
    ],
    [['deliveries', 'list', '--local'], 'unknown command "deliveries list"'],
    [['endpoints', 'failures', '--endpoint', 'whk_1', '--local'], 'endpoints failures needs --merchant'],
    [
      ['endpoints', 'failures', '--endpoint', 'whk_1', '--merchant', merchantId, '--limit', '101', '--local'],
      '--limit must be a whole number from 1 to 100, not "101"',
    ],
    [
      ['endpoints', 'failures', '--endpoint', 'whk_1', '--merchant', merchantId, '--limit', '0', '--local'],
      '--limit must be a whole number from 1 to 100, not "0"',
    ],
    [
      ['endpoints', 'failures', '--endpoint', 'whk_1', '--merchant', merchantId, '--limit', '5x', '--local'],
      '--limit must be a whole number from 1 to 100, not "5x"',
    ],
    [
      ['queues', 'redrive', '--merchant', merchantId, '--local'],
      '--merchant is not an option of queues redrive',
    ],
    [['queues', 'redrive'], 'choose a target: --local or --stage sandbox|production'],
    [['queues'], 'queues needs one of: redrive'],
    [['reconciler', 'run', '--stage', 'staging'], '--stage must be sandbox or production, not "staging"'],
    [['reconciler', 'start', '--local'], 'unknown command "reconciler start"'],
  ])('exits 2 for %j with one line "error: %s" and the usage on stderr', async (args, message) => {
    const result = await admin(args);
    expect(result.code).toBe(ExitCode.usage);
    expect(result.stdout).toBe('');
    expect(result.stderr.endsWith('\n')).toBe(true);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: /);
    expect(lines[0]).toContain(message);
    expect(lines[0]).toMatch(/\((usage: npm run -s admin -- |commands: ).*--help for details\)$/);
    expect(dynamodb.calls()).toHaveLength(0);
  });

  it("shows only the command's own synopsis once the command is known", async () => {
    const { stderr } = await admin(['keys', 'revoke', '--local']);
    expect(stderr).toContain('keys revoke --key PREFIX');
    expect(stderr).not.toContain('merchants create');
  });
});

describe('runAdmin settings', () => {
  it.each([
    ['WEBHOOK_ALLOW_PRIVATE_TARGETS', 'yes', '1, 0, true or false'],
    ['WEBHOOK_TIMEOUT_MS', '10s', 'a whole number from 1 to 60000'],
    ['STAGE', 'staging', 'sandbox or production'],
    ['DYNAMODB_ENDPOINT', 'localhost:8000', 'an http:// or https:// URL'],
  ])(
    'exits 2 with one line naming %s=%s and what it accepts, before any call',
    async (variable, value, accepts) => {
      const result = await admin(['merchants', 'create', '--name', 'Acme', '--local', '--json'], {
        LOCAL_STATE_DIR: stateDir,
        [variable]: value,
      });
      expect(result).toEqual({
        code: ExitCode.usage,
        stdout: '',
        stderr: `error: ${variable}="${value}" is not accepted: it must be ${accepts}.\n`,
      });
      expect(dynamodb.calls()).toHaveLength(0);
    },
  );

  it.each(['1', '0', 'true', 'false'])(
    'runs with WEBHOOK_ALLOW_PRIVATE_TARGETS=%s exported, as npm start is told to run',
    async (value) => {
      dynamodb.on(PutCommand).resolves({});
      const saved = process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
      process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = value;
      try {
        const env = { LOCAL_STATE_DIR: stateDir, WEBHOOK_ALLOW_PRIVATE_TARGETS: value };
        const result = await admin(['merchants', 'create', '--name', 'Acme', '--local', '--json'], env);
        expect(result).toMatchObject({ code: ExitCode.ok, stderr: '' });
      } finally {
        if (saved === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
        else process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = saved;
      }
    },
  );
});

describe('runAdmin output', () => {
  it('prints exactly one JSON object on one line with --json, and nothing on stderr', async () => {
    dynamodb.on(PutCommand).resolves({});
    const result = await admin(['merchants', 'create', '--name', 'Acme', '--local', '--json']);
    expect(result.code).toBe(ExitCode.ok);
    expect(result.stderr).toBe('');
    expect(result.stdout.endsWith('\n')).toBe(true);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
    const printed = JSON.parse(result.stdout);
    expect(Object.keys(printed)).toEqual(['merchantId', 'name', 'createdAt']);
    expect(printed).toMatchObject({ merchantId: expect.stringMatching(/^mer_/), name: 'Acme' });
    expect(dynamodb.commandCalls(PutCommand)[0]?.args[0].input.TableName).toBe('local-table');
  });

  it('prints the same object indented by two spaces without --json', async () => {
    dynamodb.on(PutCommand).resolves({});
    const result = await admin(['merchants', 'create', '--name', 'Acme', '--local']);
    const printed = JSON.parse(result.stdout);
    expect(result.stdout).toBe(`${JSON.stringify(printed, null, 2)}\n`);
  });

  it('prints a new key only in the apiKey field, and a --stage key carries that stage', async () => {
    dynamodb
      .on(GetCommand)
      .resolves({ Item: { merchantId, name: 'Acme', createdAt: '2026-01-01T00:00:00.000Z' } });
    dynamodb.on(PutCommand).resolves({});
    const result = await admin(
      [
        'keys',
        'create',
        '--merchant',
        merchantId,
        '--stage',
        'production',
        '--table',
        'prod-table',
        '--json',
      ],
      {},
    );
    expect(result.code).toBe(ExitCode.ok);
    const printed = JSON.parse(result.stdout);
    expect(Object.keys(printed)).toEqual(['apiKey', 'keyPrefix', 'merchantId', 'stage', 'expiresAt']);
    expect(printed).toMatchObject({ merchantId, stage: 'production', expiresAt: null });
    expect(printed.apiKey).toMatch(/^merchant_prd[a-z0-9]{10}_[A-Za-z0-9_-]{43}$/);
    expect(result.stdout.split(printed.apiKey)).toHaveLength(2);
    expect(result.stderr).toBe('');
    const written = dynamodb.commandCalls(PutCommand)[0]?.args[0].input;
    expect(written?.TableName).toBe('prod-table');
    expect(JSON.stringify(written)).not.toContain(printed.apiKey);
  });

  it('exits 1 with one "error:" line on stderr and nothing on stdout when the command fails', async () => {
    dynamodb.on(GetCommand).resolves({});
    const result = await admin(['keys', 'create', '--merchant', merchantId, '--local', '--json']);
    expect(result).toEqual({
      code: ExitCode.failed,
      stdout: '',
      stderr: `error: merchant ${merchantId} does not exist\n`,
    });
  });

  it('turns an SDK failure into one line on stderr', async () => {
    dynamodb.on(PutCommand).rejects(
      Object.assign(new Error('Requested resource\nnot found'), {
        name: 'ResourceNotFoundException',
      }),
    );
    const result = await admin(['merchants', 'create', '--name', 'Acme', '--stage', 'sandbox'], {});
    expect(result.code).toBe(ExitCode.failed);
    expect(result.stderr).toBe(
      "error: table merchant-payments-sandbox of sandbox not found (pass --table with the stack's TableName output)\n",
    );
  });

  it.each([
    [
      Object.assign(new Error('Region is missing'), { name: 'Error' }),
      'no AWS region: set AWS_REGION or a region in your AWS profile',
    ],
    [
      Object.assign(new Error('Could not load credentials from any providers'), {
        name: 'CredentialsProviderError',
      }),
      'no AWS credentials: Could not load credentials from any providers (set AWS_PROFILE or sign in, e.g. aws sso login)',
    ],
  ])('explains a missing AWS setup for --stage: %s', async (failure, message) => {
    dynamodb.on(PutCommand).rejects(failure);
    const result = await admin(['merchants', 'create', '--name', 'Acme', '--stage', 'production'], {});
    expect(result).toEqual({ code: ExitCode.failed, stdout: '', stderr: `error: ${message}\n` });
  });

  it('refuses a key that would be expired when shown, before touching the table', async () => {
    const result = await admin(['keys', 'create', '--merchant', merchantId, '--local', '--expires-in', '0s']);
    expect(result).toEqual({
      code: ExitCode.failed,
      stdout: '',
      stderr: 'error: --expires-in must be longer than 0s\n',
    });
    expect(dynamodb.calls()).toHaveLength(0);
  });

  it('reminds a human on stderr, without the key, that the key is shown once', async () => {
    dynamodb
      .on(GetCommand)
      .resolves({ Item: { merchantId, name: 'Acme', createdAt: '2026-01-01T00:00:00.000Z' } });
    dynamodb.on(PutCommand).resolves({});
    const result = await admin(['keys', 'create', '--merchant', merchantId, '--local']);
    const printed = JSON.parse(result.stdout);
    expect(printed.stage).toBe('sandbox');
    expect(result.stderr).toBe('note: store the apiKey now; it is not shown again\n');
  });

  it('says to run `npm start` when --local finds no runtime.json', async () => {
    const emptyDir = await mkdtemp(join(tmpdir(), 'admin-cli-empty-'));
    const result = await admin(['keys', 'list', '--merchant', merchantId, '--local'], {
      LOCAL_STATE_DIR: emptyDir,
    });
    await rm(emptyDir, { recursive: true });
    expect(result).toEqual({
      code: ExitCode.failed,
      stdout: '',
      stderr: 'error: no local runtime found: run `npm start` first\n',
    });
  });
});

describe('runAdmin keys revoke and keys rotate with --stage: the authorizer cache', () => {
  const keyPrefix = 'merchant_sbx0123456789';
  const apiName = 'MerchantPayments-sandbox-api';
  const storedKey = {
    keyId: '0123456789',
    keyPrefix,
    keyHash: 'h'.repeat(64),
    merchantId,
    stage: 'sandbox',
    status: 'revoked',
    createdAt: '2026-01-01T00:00:00.000Z',
  };

  /** Two pages of REST APIs, the stage's own on the second, as a busy account lists them. */
  function listRestApis() {
    apigateway
      .on(GetRestApisCommand, { position: undefined })
      .resolves({ items: [{ id: 'other1', name: 'MerchantPayments-production-api' }], position: 'page2' })
      .on(GetRestApisCommand, { position: 'page2' })
      .resolves({
        items: [
          { id: 'abc123', name: apiName },
          { id: 'other2', name: 'unrelated' },
        ],
      });
  }

  function storedOlderKeyAndMerchant() {
    dynamodb.on(QueryCommand).resolves({ Items: [{ ...storedKey, status: 'active' }] });
    dynamodb
      .on(GetCommand)
      .resolves({ Item: { merchantId, name: 'Acme', createdAt: '2026-01-01T00:00:00.000Z' } });
    dynamodb.on(PutCommand).resolves({});
    dynamodb.on(UpdateCommand).resolves({ Attributes: { ...storedKey, status: 'active' } });
  }

  it('keys revoke flushes the authorizers cache of the stage’s REST API, found by its name', async () => {
    dynamodb.on(UpdateCommand).resolves({ Attributes: storedKey });
    listRestApis();
    apigateway.on(FlushStageAuthorizersCacheCommand).resolves({});
    const result = await admin(['keys', 'revoke', '--key', keyPrefix, '--stage', 'sandbox', '--json'], {});
    expect(result).toEqual({
      code: ExitCode.ok,
      stdout: `${JSON.stringify({ keyPrefix, status: 'revoked' })}\n`,
      stderr: '',
    });
    expect(dynamodb.commandCalls(UpdateCommand)[0]?.args[0].input.TableName).toBe(
      'merchant-payments-sandbox',
    );
    expect(
      apigateway.commandCalls(FlushStageAuthorizersCacheCommand).map((call) => call.args[0].input),
    ).toEqual([{ restApiId: 'abc123', stageName: 'sandbox' }]);
  });

  it('keys rotate flushes the stage’s authorizers cache once the older keys’ expiry is written', async () => {
    storedOlderKeyAndMerchant();
    listRestApis();
    apigateway.on(FlushStageAuthorizersCacheCommand).resolves({});
    const result = await admin(
      ['keys', 'rotate', '--merchant', merchantId, '--expire-old-in', '0s', '--stage', 'sandbox', '--json'],
      {},
    );
    expect(result.code).toBe(ExitCode.ok);
    expect(JSON.parse(result.stdout).apiKey).toMatch(/^merchant_sbx/);
    expect(
      apigateway.commandCalls(FlushStageAuthorizersCacheCommand).map((call) => call.args[0].input),
    ).toEqual([{ restApiId: 'abc123', stageName: 'sandbox' }]);
  });

  it('keys revoke exits 1 with one line saying the key is revoked but cached answers may pass for 60 s when the flush fails', async () => {
    dynamodb.on(UpdateCommand).resolves({ Attributes: storedKey });
    listRestApis();
    apigateway
      .on(FlushStageAuthorizersCacheCommand)
      .rejects(
        Object.assign(new Error('User is not authorized\nto flush'), { name: 'AccessDeniedException' }),
      );
    const result = await admin(['keys', 'revoke', '--key', keyPrefix, '--stage', 'sandbox', '--json'], {});
    expect(result).toEqual({
      code: ExitCode.failed,
      stdout: `${JSON.stringify({ keyPrefix, status: 'revoked' })}\n`,
      stderr:
        `error: key ${keyPrefix} is revoked in the table, but the authorizer cache of stage sandbox was not flushed ` +
        '(AccessDeniedException: User is not authorized to flush), so cached answers may still pass for up to 60 s; ' +
        `flush it with: aws apigateway flush-stage-authorizers-cache --rest-api-id <id of ${apiName}> --stage-name sandbox\n`,
    });
  });

  it('keys revoke exits 1 naming the missing REST API when the stage has none, without a flush', async () => {
    dynamodb.on(UpdateCommand).resolves({ Attributes: storedKey });
    apigateway.on(GetRestApisCommand).resolves({ items: [{ id: 'other1', name: 'unrelated' }] });
    const result = await admin(['keys', 'revoke', '--key', keyPrefix, '--stage', 'sandbox'], {});
    expect(result.code).toBe(ExitCode.failed);
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: key ${keyPrefix} is revoked in the table, but .* \\(no REST API named ${apiName} in this account and region\\), so cached answers may still pass for up to 60 s; [^\\n]*\\n$`,
      ),
    );
    expect(apigateway.commandCalls(FlushStageAuthorizersCacheCommand)).toHaveLength(0);
  });

  it('keys rotate still prints the new key, shown only here, when the flush fails', async () => {
    storedOlderKeyAndMerchant();
    listRestApis();
    apigateway.on(FlushStageAuthorizersCacheCommand).rejects(new Error('socket hang up'));
    const result = await admin(
      ['keys', 'rotate', '--merchant', merchantId, '--expire-old-in', '0s', '--stage', 'sandbox', '--json'],
      {},
    );
    expect(result.code).toBe(ExitCode.failed);
    const printed = JSON.parse(result.stdout);
    expect(printed.apiKey).toMatch(/^merchant_sbx[a-z0-9]{10}_/);
    expect(result.stderr).toBe(
      `error: key ${printed.keyPrefix} is created and the older keys of ${merchantId} expire as set in the table, ` +
        'but the authorizer cache of stage sandbox was not flushed (socket hang up), so cached answers may still pass ' +
        `for up to 60 s; flush it with: aws apigateway flush-stage-authorizers-cache --rest-api-id <id of ${apiName}> --stage-name sandbox\n`,
    );
    expect(result.stderr).not.toContain(printed.apiKey);
  });
});
