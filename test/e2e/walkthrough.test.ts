import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalRuntime, startLocalRuntime } from '../../tools/local/runtime';
import { readLocalSettings } from '../../tools/local/settings';
import { startWebhookReceiver, type WebhookReceiver } from '../../tools/webhook-receiver/webhook-receiver';
import { testDynamoDbTarget, writeTestDynamoDbKey } from '../support/dynamodb';
import { receivedDeliveries } from '../support/received-deliveries';
import { runToEnd } from '../support/spawned-process';
import {
  DeployedStageFence,
  Guides,
  outputOf,
  outputsByBlock,
  type ShellBlock,
  shellBlocksOf,
  walkthroughScript,
} from '../support/walkthrough';

const repoRoot = resolve(import.meta.dirname, '..', '..');
let workDir: string;
let runtime: LocalRuntime;
let receiver: WebhookReceiver;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'merchant-payments-walkthrough-'));
  await mkdir(join(workDir, '.local'));
  // The guides run at the repository root: here, its tools/ (the shell helpers) and this .local/.
  await symlink(join(repoRoot, 'tools'), join(workDir, 'tools'));
  // The admin CLI's --local signs with the key npm start keeps here: this file's database in the
  // suite's DynamoDB Local, which this runtime uses instead of starting its own.
  await writeTestDynamoDbKey(join(workDir, '.local'));
  runtime = await startLocalRuntime({
    settings: readLocalSettings({ PORT: '0' }),
    inMemory: true,
    stateDir: join(workDir, '.local'),
    dynamodb: testDynamoDbTarget(),
    tableName: `walkthrough-${Date.now()}`,
  });
  // `npm run webhook-receiver`, in process, started after `npm start` as the guides allow, with the
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

/** Runs blocks as one script with `bash -euo pipefail` (or plain `bash`) in `cwd`. */
function run(blocks: readonly ShellBlock[], cwd: string, options: { strict?: boolean } = {}) {
  const flags = options.strict === false ? [] : ['-euo', 'pipefail'];
  return runToEnd('bash', [...flags, '-c', walkthroughScript(blocks)], {
    cwd,
    timeoutMs: 150_000,
    env: { ...process.env, WALKTHROUGH_REPO: repoRoot, LOCAL_STATE_DIR: join(cwd, '.local') },
  });
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

const lastJson = (text: string, opening: string) => jsonAt(text, text.lastIndexOf(opening));

const received = () => receivedDeliveries(join(workDir, '.local', 'webhook-receiver'));

const runnable = (file: string) =>
  shellBlocksOf(repoRoot, file).filter((block) => block.fence !== DeployedStageFence);

describe('the walkthrough: every shell block of the README and the guides, in order', () => {
  const blocks = Guides.flatMap(runnable);
  let outputs: Map<string, string>;

  beforeAll(async () => {
    const { code, stdout, stderr } = await run(blocks, workDir);
    outputs = outputsByBlock(stdout);
    const stoppedAt = [...outputs.keys()].at(-1);
    expect({ code, stderr, stoppedAt }).toEqual({ code: 0, stderr: '', stoppedAt });
  }, 160_000);

  it('runs every block, none with an error answer', () => {
    expect([...outputs.keys()]).toEqual(blocks.map((block) => block.at));
    for (const file of Guides) expect(outputOf(outputs, file)).not.toContain('"error"');
  });

  it('README: registers the local receiver, whose test delivery arrives verified', async () => {
    const readme = outputOf(outputs, 'README.md');
    const line = JSON.parse(readme.split('\n').find((text) => text.includes('"verified":')) ?? '{}');
    expect(line).toMatchObject({ type: 'invoices.InvoicePaid', verified: true });
    expect(line.id).toMatch(/^whkdel_[0-9a-z]{26}$/);
    expect(await received()).toContainEqual(expect.objectContaining({ id: line.id, verified: true }));
    // Develop: the lint ran for real, at the repository root.
    expect(readme).toMatch(/^Checked \d+ files? in /m);
  });

  it('getting started: a paid invoice, the webhooks of the one paid by link, a recovery', async () => {
    const guide = outputOf(outputs, 'docs/getting-started.md');
    expect(guide).toContain('"status":"paid"');
    expect(guide).toContain('"amountRemaining":{"amount":0,"currency":"USD"}');
    expect(guide).toMatch(/"url":"https:\/\/localhost:\d+\/webhooks"/);
    const testDelivery = jsonAt(guide, guide.indexOf('{"webhookDeliveryId"'));
    expect(testDelivery).toMatchObject({ test: true, eventType: 'payments.PaymentCreated' });
    expect(await received()).toContainEqual(
      expect.objectContaining({ id: testDelivery.webhookDeliveryId, verified: true }),
    );

    const lines = guide.split('\n');
    const paid = JSON.parse(lines.find((line) => line.startsWith('{"payment":')) ?? '{}');
    expect(paid).toMatchObject({ payment: { status: 'completed' }, invoice: { status: 'paid' } });
    const verified = lines.filter((line) => line.includes('"verified":')).map((line) => JSON.parse(line));
    expect(verified).toEqual(
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
    expect(guide).not.toContain('"verified":false');
    expect(lastJson(guide, '{"recoveryId"')).toMatchObject({ status: 'completed', exhaustedFound: 0 });
  });

  it('getting started: the event log shows the InvoicePaid delivered to each of its three endpoints', () => {
    const guide = outputOf(outputs, 'docs/getting-started.md');
    expect(guide).toMatch(/\{"eventId":"evt_[0-9a-z]{26}","type":"invoices\.InvoicePaid"/);
    const listed = lastJson(guide, '{"items":[{"webhookDeliveryId"');
    expect(listed.page).toEqual({ hasMore: false });
    const delivered = expect.objectContaining({
      eventType: 'invoices.InvoicePaid',
      status: 'succeeded',
      attempts: [expect.objectContaining({ responseStatusCode: 200, errorMessage: null })],
    });
    // "Quick start" of the README, "Main" and the flow's endpoint are subscribed to it.
    expect(listed.items).toEqual([delivered, delivered, delivered]);
    expect(new Set(listed.items.map((item: any) => item.webhookEndpointId)).size).toBe(3);
  });

  it('getting started: a read link minted and ended, then a manage link', () => {
    const guide = outputOf(outputs, 'docs/getting-started.md');
    expect(guide).toMatch(/"url":"http:\/\/[^"]+\/portal\/psn_[0-9a-z]{26}#portallink_sbx/);
    expect(guide).toMatch(/"portalSessionId":"psn_[0-9a-z]{26}"[^}]*"revokedAt":"/);
    const manage = lastJson(guide, '{"portalSessionId"');
    expect(manage).toMatchObject({
      scope: 'manage',
      url: expect.stringMatching(/^http:\/\/[^"]+\/portal\/psn_[0-9a-z]{26}#portallink_sbx/),
    });
    expect(manage.revokedAt ?? null).toBeNull();
  });

  it('receiving webhooks and the sandbox: a test delivery, a recovery, simulated failures', () => {
    const webhooks = outputOf(outputs, 'docs/receiving-webhooks.md');
    expect(lastJson(webhooks, '{"webhookDeliveryId"')).toMatchObject({ test: true });
    expect(lastJson(webhooks, '{"recoveryId"').recoveryId).toMatch(/^whkrec_[0-9a-z]{26}$/);
    const sandbox = outputOf(outputs, 'docs/sandbox-testing.md');
    expect(lastJson(sandbox, '{"webhookEndpointId"')).toMatchObject({ simulateFailures: 5 });
    expect(lastJson(sandbox, '{"items"').page).toBeDefined();
  });

  it('the local runtime: .local/ open to the user only, runtime.json with its fields', () => {
    const guide = outputOf(outputs, 'docs/local-runtime.md');
    const entries = guide.split('\n').filter((line) => /^[d-]r/.test(line));
    expect(entries.length).toBeGreaterThanOrEqual(3);
    for (const entry of entries) expect(entry).toMatch(/^(drwx------|-rw-------)/);
    expect(guide).toContain('baseUrl');
    expect(guide).toContain('apiKey');
  });

  it('deploying: the smoke test passes against the local runtime', () => {
    const smoke = outputOf(outputs, 'docs/deploying.md');
    expect(smoke).toMatch(/^ok {3}invoices\.InvoicePaid delivered and verified/m);
    expect(smoke).toMatch(/^ok {3}webhook endpoint deleted/m);
    expect(smoke).not.toMatch(/^FAIL/m);
  });

  it('the admin CLI: prints only JSON on stdout, one object per line that prints', () => {
    const guide = outputOf(outputs, 'docs/admin-cli.md');
    const printed = guide
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    // The two lines whose output the block keeps in variables print nothing of their own.
    expect(printed.map((object) => Object.keys(object))).toEqual([
      ['apiKey', 'keyPrefix', 'merchantId', 'stage', 'expiresAt'],
      ['keyPrefix', 'status'],
      ['apiKey', 'keyPrefix', 'merchantId', 'stage', 'expiresAt'],
    ]);
    expect(printed[1]).toEqual({ keyPrefix: printed[0].keyPrefix, status: 'revoked' });
  });
});

describe('a block whose command fails', () => {
  /** A state folder like the runtime's, with a key the service does not know. */
  async function withWrongKey(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'merchant-payments-walkthrough-wrong-key-'));
    const hooks = join(dir, '.local', 'webhook-receiver');
    await mkdir(hooks, { recursive: true });
    await symlink(join(repoRoot, 'tools'), join(dir, 'tools'));
    const info = JSON.parse(await readFile(join(workDir, '.local', 'runtime.json'), 'utf8'));
    const wrongKey = `${info.apiKey.slice(0, -4)}0000`;
    await writeFile(join(dir, '.local', 'runtime.json'), JSON.stringify({ ...info, apiKey: wrongKey }));
    await copyFile(
      join(workDir, '.local', 'webhook-receiver', 'receiver.json'),
      join(hooks, 'receiver.json'),
    );
    await writeFile(join(hooks, 'secrets'), '');
    return dir;
  }

  const registration = () =>
    runnable('README.md').filter((block) => block.script.includes('webhook-endpoints'));

  it.each([
    { shell: 'bash -euo pipefail', strict: true },
    { shell: 'an interactive shell (no -e)', strict: false },
  ])(
    'stops with the error in $shell, and appends nothing to the receiver’s secrets',
    async ({ strict }) => {
      const dir = await withWrongKey();
      try {
        expect(registration()).toHaveLength(1);
        const { code, stdout, stderr } = await run(registration(), dir, { strict });
        // The error answer and curl's line, on stderr; nothing of it taken for a value.
        expect(stderr).toContain('"code":"unauthorized"');
        expect(stderr).toContain('curl: (22)');
        expect(stdout).not.toContain('undefined');
        expect(await readFile(join(dir, '.local', 'webhook-receiver', 'secrets'), 'utf8')).toBe('');
        if (strict) {
          // The registration is the block's first call: the script ends there.
          expect(code).toBe(22);
          expect(stderr.match(/curl: \(22\)/g)).toHaveLength(1);
        } else {
          expect(stderr).toContain('error: the answer has no signingSecret');
          expect(code).not.toBe(0);
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
