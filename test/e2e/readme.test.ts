import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalRuntime, startLocalRuntime } from '../../tools/local/runtime';
import { readLocalSettings } from '../../tools/local/settings';
import { startWebhookReceiver, type WebhookReceiver } from '../../tools/webhook-receiver/webhook-receiver';
import { testDynamoDbTarget, writeTestDynamoDbKey } from '../support/dynamodb';
import { runToEnd } from '../support/spawned-process';

const repoRoot = resolve(import.meta.dirname, '..', '..');
let workDir: string;
let runtime: LocalRuntime;
let receiver: WebhookReceiver;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'merchant-payments-readme-'));
  await mkdir(join(workDir, '.local'));
  // The admin CLI's --local signs with the key npm start keeps here: this file's database in the
  // suite's DynamoDB Local, which this runtime uses instead of starting its own.
  await writeTestDynamoDbKey(join(workDir, '.local'));
  runtime = await startLocalRuntime({
    settings: readLocalSettings({ PORT: '0' }),
    inMemory: true,
    stateDir: join(workDir, '.local'),
    dynamodb: testDynamoDbTarget(),
    tableName: `readme-${Date.now()}`,
  });
  // `npm run webhook-receiver`, in process, started after `npm start` as the README allows, with the
  // CA it makes itself: the test workers trust only the suite's CA (NODE_EXTRA_CA_CERTS), so every
  // delivery that arrives proves the runtime trusts the receiver's own, without a restart.
  receiver = await startWebhookReceiver({
    port: 0,
    dir: join(workDir, '.local', 'webhook-receiver'),
    log: () => undefined,
  });
});
afterAll(async () => {
  await runtime?.stop();
  await receiver?.close();
  await rm(workDir, { recursive: true, force: true });
});

/** The shell blocks of the README from one heading up to the next one given, in order. */
async function readmeScript(from: string, to: string): Promise<string> {
  const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');
  return shellBlocks(readme.slice(readme.indexOf(from), readme.indexOf(to)));
}

/** Every shell block of a guide under docs/, in order. */
async function guideScript(file: string): Promise<string> {
  return shellBlocks(await readFile(join(repoRoot, 'docs', file), 'utf8'));
}

function shellBlocks(markdown: string): string {
  return [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]).join('\n');
}

async function walkThrough(): Promise<string> {
  return readmeScript('## Try it', '## Configuration');
}

/** The JSON value that starts at `start` in `text`, where curl printed it with no newline after. */
function jsonAt(text: string, start: number): any {
  for (let end = text.indexOf('}', start); end !== -1; end = text.indexOf('}', end + 1)) {
    try {
      return JSON.parse(text.slice(start, end + 1));
    } catch {
      // Not yet the closing brace of the value.
    }
  }
  throw new Error(`no JSON value at ${start}`);
}

function runBash(script: string, options: { cwd: string; env?: NodeJS.ProcessEnv }) {
  return runToEnd('bash', ['-euo', 'pipefail', '-c', script], options);
}

describe('README walk-through', () => {
  it('runs as written against the local runtime: paid invoices, and the webhooks of the one paid by link', async () => {
    const script = await walkThrough();
    expect(script).toContain('/invoices');
    expect(script).not.toContain('hooks.example.com');
    const { code, stdout, stderr } = await runBash(script, { cwd: workDir });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).not.toContain('"error"');
    expect(stdout).toContain('"status":"paid"');
    expect(stdout).toContain('"amountRemaining":{"amount":0,"currency":"USD"}');
    // The webhook and event-log examples: a test delivery, a recovery, one event and its deliveries.
    expect(stdout).toContain('"test":true');
    // "Webhooks" registers the local receiver, never an outside name, and its test delivery arrives.
    expect(stdout).toMatch(/"url":"https:\/\/localhost:\d+\/webhooks"/);
    const testDelivery = jsonAt(stdout, stdout.indexOf('{"webhookDeliveryId"'));
    expect(testDelivery).toMatchObject({ test: true, eventType: 'payments.PaymentCreated' });
    const recorded = await readFile(join(workDir, '.local', 'webhook-receiver', 'received.ndjson'), 'utf8');
    expect(
      recorded
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toContainEqual(expect.objectContaining({ id: testDelivery.webhookDeliveryId, verified: true }));
    expect(stdout).toMatch(/"recoveryId":"whkrec_[0-9a-z]{26}"/);
    expect(stdout).toMatch(/\{"eventId":"evt_[0-9a-z]{26}","type":"invoices\.InvoicePaid"/);

    // "Try the whole flow": the pay-link payment, then the deliveries the receiver verified for it.
    const lines = stdout.split('\n');
    const paid = JSON.parse(lines.find((line) => line.startsWith('{"payment":')) ?? '{}');
    expect(paid).toMatchObject({ payment: { status: 'completed' }, invoice: { status: 'paid' } });
    const received = lines.filter((line) => line.includes('"verified":')).map((line) => JSON.parse(line));
    expect(received).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'payments.PaymentCreated',
          verified: true,
          data: expect.objectContaining({ paymentId: paid.payment.paymentId }),
        }),
        expect.objectContaining({
          type: 'invoices.InvoicePaid',
          verified: true,
          data: expect.objectContaining({
            invoiceNumber: paid.invoice.invoiceNumber,
            amount: paid.payment.amount,
          }),
        }),
      ]),
    );
    expect(stdout).not.toContain('"verified":false');

    // "Event log": the deliveries of the flow's InvoicePaid, to "Main" and to the flow's endpoint,
    // both at the local receiver, as the README says they are.
    const listed = jsonAt(stdout, stdout.lastIndexOf('{"items":[{"webhookDeliveryId"'));
    expect(listed.page).toEqual({ hasMore: false });
    const delivered = expect.objectContaining({
      eventType: 'invoices.InvoicePaid',
      status: 'succeeded',
      attempts: [expect.objectContaining({ responseStatusCode: 200, errorMessage: null })],
    });
    expect(listed.items).toEqual([delivered, delivered]);
    expect(new Set(listed.items.map((item: any) => item.webhookEndpointId)).size).toBe(2);

    // "Merchant portal": a read link minted and the session ended, then a manage link.
    expect(stdout).toMatch(/"url":"http:\/\/[^"]+\/portal\/psn_[0-9a-z]{26}#portallink_sbx/);
    expect(stdout).toMatch(/"portalSessionId":"psn_[0-9a-z]{26}"[^}]*"revokedAt":"/);
    const manage = jsonAt(stdout, stdout.lastIndexOf('{"portalSessionId"'));
    expect(manage).toMatchObject({
      scope: 'manage',
      url: expect.stringMatching(/^http:\/\/[^"]+\/portal\/psn_[0-9a-z]{26}#portallink_sbx/),
    });
    expect(manage.revokedAt ?? null).toBeNull();
  }, 50_000);
});

describe('docs/admin-cli.md', () => {
  it('runs as written, with the variables npm start is told to use exported, and prints only JSON on stdout', async () => {
    const script = await guideScript('admin-cli.md');
    const commands = script.split('\n').filter((line) => line.includes('admin --'));
    expect(commands.length).toBeGreaterThanOrEqual(5);
    for (const line of commands) expect(line).toContain('npm run -s admin -- ');

    // Every admin line of the block, also printing its stdout, so each can be parsed on its own.
    const env = { ...process.env, LOCAL_STATE_DIR: join(workDir, '.local') };
    const { code, stdout, stderr } = await runBash(script, { cwd: repoRoot, env });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const printed = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    // The two lines whose output the block keeps in variables print nothing of their own.
    expect(printed.map((object) => Object.keys(object))).toEqual([
      ['apiKey', 'keyPrefix', 'merchantId', 'stage', 'expiresAt'],
      ['keyPrefix', 'status'],
      ['apiKey', 'keyPrefix', 'merchantId', 'stage', 'expiresAt'],
    ]);
    expect(printed[1]).toEqual({ keyPrefix: printed[0].keyPrefix, status: 'revoked' });
  }, 60_000);
});
