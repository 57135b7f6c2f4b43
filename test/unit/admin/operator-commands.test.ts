import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import {
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  SQSClient,
  StartMessageMoveTaskCommand,
} from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../tools/cli/command-failure';
import { runAdminInProcess } from '../../support/admin-in-process';
import { invokePayload, mockAwsClient, queueDoesNotExist } from '../../support/aws-client-mocks';

const sqs = mockAwsClient(SQSClient);
const lambda = mockAwsClient(LambdaClient);

function admin(args: string[], env: Record<string, string> = {}) {
  return runAdminInProcess(args, env);
}

/** Expects a failed command's exit: code 1, nothing on stdout, and `line` as the one line on stderr. */
function expectFailedWith(result: { code: number; stdout: string; stderr: string }, line: string): void {
  expect(result.code).toBe(ExitCode.failed);
  expect(result.stdout).toBe('');
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toBe(line);
}

const queueUrl = (name: string) => `https://sqs.eu-west-1.amazonaws.com/123456789012/${name}`;
const queueArn = (name: string) => `arn:aws:sqs:eu-west-1:123456789012:${name}`;

/** The production stack's two delivery queues, the dead-letter queue holding `waiting` messages. */
function stackQueues(waiting: number) {
  for (const name of ['MerchantPayments-production-delivery', 'MerchantPayments-production-delivery-dlq']) {
    sqs.on(GetQueueUrlCommand, { QueueName: name }).resolves({ QueueUrl: queueUrl(name) });
    sqs.on(GetQueueAttributesCommand, { QueueUrl: queueUrl(name) }).resolves({
      Attributes: {
        QueueArn: queueArn(name),
        ApproximateNumberOfMessages: name.endsWith('-dlq') ? String(waiting) : '0',
      },
    });
  }
}

describe('queues redrive --stage', () => {
  it('starts a message move task from the stage’s delivery DLQ to its delivery queue, found by their names', async () => {
    stackQueues(7);
    sqs.on(StartMessageMoveTaskCommand).resolves({ TaskHandle: 'task-handle-1' });

    const result = await admin(['queues', 'redrive', '--stage', 'production', '--json']);

    expect(result).toMatchObject({ code: ExitCode.ok, stderr: '' });
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(result.stdout)).toEqual({
      taskHandle: 'task-handle-1',
      source: 'MerchantPayments-production-delivery-dlq',
      destination: 'MerchantPayments-production-delivery',
      approximateMessages: 7,
    });
    expect(sqs.commandCalls(StartMessageMoveTaskCommand).map((call) => call.args[0].input)).toEqual([
      {
        SourceArn: queueArn('MerchantPayments-production-delivery-dlq'),
        DestinationArn: queueArn('MerchantPayments-production-delivery'),
      },
    ]);
  });

  it('says in one line which queue is missing, and starts nothing', async () => {
    sqs.on(GetQueueUrlCommand).rejects(queueDoesNotExist());

    const result = await admin(['queues', 'redrive', '--stage', 'sandbox']);

    expectFailedWith(
      result,
      'error: no queue named MerchantPayments-sandbox-delivery-dlq in this account and region: is the stack MerchantPayments-sandbox deployed there?',
    );
    expect(sqs.commandCalls(StartMessageMoveTaskCommand)).toHaveLength(0);
  });

  it('reports a refused move task (one already running) as one line with its SQS error', async () => {
    stackQueues(3);
    const running = Object.assign(new Error('There is already a task running.'), {
      name: 'UnsupportedOperation',
    });
    sqs.on(StartMessageMoveTaskCommand).rejects(running);

    const result = await admin(['queues', 'redrive', '--stage', 'production']);

    expectFailedWith(result, 'error: UnsupportedOperation: There is already a task running.');
  });
});

describe('reconciler run --stage', () => {
  it('invokes the stage’s reconciler and waits for it, printing what it returned', async () => {
    lambda.on(InvokeCommand).resolves({ StatusCode: 200, Payload: invokePayload({ requeued: 3 }) });

    const result = await admin(['reconciler', 'run', '--stage', 'sandbox', '--json']);

    expect(result).toEqual({ code: ExitCode.ok, stdout: '{"requeued":3}\n', stderr: '' });
    expect(lambda.commandCalls(InvokeCommand).map((call) => call.args[0].input)).toEqual([
      { FunctionName: 'MerchantPayments-sandbox-reconciler', InvocationType: 'RequestResponse' },
    ]);
  });

  it('turns a FunctionError into one line with the function’s error type and message', async () => {
    lambda.on(InvokeCommand).resolves({
      StatusCode: 200,
      FunctionError: 'Unhandled',
      Payload: invokePayload({
        errorType: 'ProvisionedThroughputExceededException',
        errorMessage: 'Rate exceeded',
        trace: ['at first (file.js:1:1)', 'at second (file.js:2:2)'],
      }),
    });

    const result = await admin(['reconciler', 'run', '--stage', 'production']);

    expectFailedWith(
      result,
      'error: the reconciler MerchantPayments-production-reconciler failed (Unhandled): ProvisionedThroughputExceededException: Rate exceeded',
    );
  });

  it('says in one line that the function does not exist, not that a table is missing', async () => {
    const missing = Object.assign(new Error('Function not found'), { name: 'ResourceNotFoundException' });
    lambda.on(InvokeCommand).rejects(missing);

    const result = await admin(['reconciler', 'run', '--stage', 'sandbox']);

    expectFailedWith(
      result,
      'error: no function named MerchantPayments-sandbox-reconciler in this account and region: is the stack MerchantPayments-sandbox deployed there?',
    );
  });
});

describe('queues redrive and reconciler run --local without a running runtime', () => {
  it.each([[['queues', 'redrive']], [['reconciler', 'run']]])(
    '%j exits 1 with one line saying to run npm start',
    async (command) => {
      const stateDir = await mkdtemp(join(tmpdir(), 'admin-op-'));
      try {
        await writeFile(
          join(stateDir, 'runtime.json'),
          JSON.stringify({ stage: 'sandbox', dynamodbEndpoint: 'http://127.0.0.1:1', tableName: 't' }),
        );
        await writeFile(join(stateDir, 'dynamodb.key'), `${'0'.repeat(32)}\n`, { mode: 0o600 });

        const result = await admin([...command, '--local'], { LOCAL_STATE_DIR: stateDir });

        expectFailedWith(result, 'error: no local runtime is running: run npm start first');
      } finally {
        await rm(stateDir, { recursive: true, force: true });
      }
    },
  );
});
