import { randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newSigningSecret } from '../../../functions/domain/webhook-secret';
import { deliveryBody, deliveryHeaders } from '../../../functions/domain/webhook-signature';
import { CheckFailure } from '../../../tools/smoke/check-failure';
import { type SmokeReceiver, startSmokeReceiver } from '../../../tools/smoke/smoke-receiver';
import { TestCaFiles } from '../../support/test-ca';

let caDir: string;
let receiver: SmokeReceiver;
const secret = newSigningSecret((size) => randomBytes(size));

beforeAll(async () => {
  // The suite's CA, which this worker trusts, where the receiver looks for the local one.
  caDir = await mkdtemp(join(tmpdir(), 'merchant-payments-smoke-receiver-'));
  for (const file of Object.values(TestCaFiles))
    await copyFile(join(inject('testCaDir'), file), join(caDir, file));
  receiver = await startSmokeReceiver({ kind: 'this-machine', caDir });
  receiver.trust(secret);
});
afterAll(async () => {
  await receiver?.close();
  await rm(caDir, { recursive: true, force: true });
});

/** POSTs one delivery of `invoiceId` signed with `signingSecret`, as the dispatcher sends it. */
async function deliver(deliveryId: string, invoiceId: string, signingSecret: string): Promise<number> {
  const body = deliveryBody({
    deliveryId,
    eventType: 'invoices.InvoicePaid',
    createdAt: new Date().toISOString(),
    data: { invoiceId },
  });
  const timestamp = Math.floor(Date.now() / 1_000);
  const headers = deliveryHeaders({ secret: signingSecret, deliveryId, timestamp, body });
  const response = await fetch(receiver.url, { method: 'POST', headers, body });
  return response.status;
}

describe('startSmokeReceiver', () => {
  it('serves https on loopback and answers 200 to a delivery signed with the trusted secret, which the wait finds', async () => {
    expect(receiver.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/smoke-webhooks$/);
    expect(await deliver('whkdel_one', 'inv_one', secret)).toBe(200);
    const found = await receiver.waitFor((delivery) => delivery.data.invoiceId === 'inv_one', 1_000);
    expect(found).toMatchObject({
      id: 'whkdel_one',
      type: 'invoices.InvoicePaid',
      data: { invoiceId: 'inv_one' },
    });
  });

  it('refuses 401 a delivery signed with another secret, and a wait in vain says so', async () => {
    const other = newSigningSecret((size) => randomBytes(size));
    expect(await deliver('whkdel_two', 'inv_two', other)).toBe(401);
    const waited = receiver.waitFor((delivery) => delivery.data.invoiceId === 'inv_two', 200);
    await expect(waited).rejects.toThrow(
      new CheckFailure(
        'no matching delivery within 0.2 s: the receiver got 1 verified but not the one awaited; refused 1 × signature_mismatch',
      ),
    );
  });
});
