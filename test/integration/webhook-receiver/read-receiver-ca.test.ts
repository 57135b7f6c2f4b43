import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalCa, LocalCaFiles } from '../../../tools/webhook-receiver/local-ca';
import { readReceiverCa } from '../../../tools/webhook-receiver/read-receiver-ca';
import { webhookReceiverDirIn } from '../../../tools/webhook-receiver/webhook-receiver-dir';

let stateDir: string;

beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'merchant-payments-receiver-ca-'));
});
afterEach(async () => {
  await rm(stateDir, { recursive: true, force: true });
});

const fingerprint = (pem: string | undefined) => new X509Certificate(pem ?? '').fingerprint256;

describe('readReceiverCa', () => {
  it('reads nothing while the state folder holds no receiver', async () => {
    expect(await readReceiverCa(stateDir)).toBeUndefined();
  });

  it('reads the CA the receiver made in the state folder, and a CA made again at the next call', async () => {
    const dir = webhookReceiverDirIn(stateDir);
    const first = await createLocalCa(dir);
    expect(await readReceiverCa(stateDir)).toBe(first.caCertPem);

    await rm(join(dir, LocalCaFiles.caCert));
    const again = await createLocalCa(dir);
    expect(fingerprint(again.caCertPem)).not.toBe(fingerprint(first.caCertPem));
    expect(await readReceiverCa(stateDir)).toBe(again.caCertPem);
  });

  it('reads nothing when ca.crt holds no CA certificate: a server certificate, or no certificate at all', async () => {
    const dir = webhookReceiverDirIn(stateDir);
    const ca = await createLocalCa(dir);
    await writeFile(join(dir, LocalCaFiles.caCert), ca.serverCertPem);
    expect(await readReceiverCa(stateDir)).toBeUndefined();
    await writeFile(join(dir, LocalCaFiles.caCert), 'not a certificate\n');
    expect(await readReceiverCa(stateDir)).toBeUndefined();
  });
});
