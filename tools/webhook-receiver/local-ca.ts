import { createPrivateKey, randomBytes, X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { closeFiles, PrivateMode, privateDir } from '../local/private-files';

/** A certificate authority of this machine and the `localhost` server certificate it signed, as files and PEM. */
export interface LocalCa {
  readonly dir: string;
  readonly caKeyPath: string;
  readonly caCertPath: string;
  readonly serverKeyPath: string;
  readonly serverCertPath: string;
  readonly caCertPem: string;
  readonly serverKeyPem: string;
  readonly serverCertPem: string;
}

export const LocalCaFiles = {
  caKey: 'ca.key',
  caCert: 'ca.crt',
  serverKey: 'server.key',
  serverCert: 'server.crt',
} as const;

export interface LocalCaOptions {
  /** How long new certificates are valid; default one day. */
  readonly validityDays?: number;
  /** Common name of a new CA, followed by a random suffix so two CAs never share a subject. */
  readonly caName?: string;
}

/** A certificate this close to expiry is made again rather than reused. */
const MinimumRemainingValidityMs = 60 * 60 * 1000;

/**
 * Makes (or, when `dir` already holds a valid set, reuses) an EC P-256 CA and a `localhost` server
 * certificate it signed (SAN localhost, 127.0.0.1, ::1). A set is reused while both certificates
 * have more than an hour left, the CA signed the server certificate and the server key matches it.
 * Every file is this user's only: the CA's key signs what the runtime trusts.
 */
export async function createLocalCa(dir: string, options: LocalCaOptions = {}): Promise<LocalCa> {
  await privateDir(dir);
  await closeFiles(dir, Object.values(LocalCaFiles));
  const existing = await loadLocalCa(dir).catch(() => undefined);
  if (existing !== undefined && isUsable(existing)) return existing;

  const files = await generateCa(options.validityDays ?? 1, options.caName ?? 'merchant-payments local CA');
  // Written in a staging folder and renamed into place, so a reader never sees half a key. The CA
  // certificate lands last: a reader racing the renames sees a set `isUsable` refuses, never a
  // silently mismatched one.
  const staging = await mkdtemp(join(dir, '.staging-'));
  try {
    for (const [name, pem] of files) {
      await writeFile(join(staging, name), pem, { mode: PrivateMode.file });
      await rename(join(staging, name), join(dir, name));
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return loadLocalCa(dir);
}

/** Reads the set `createLocalCa` left in `dir`; rejects when a file is missing. Never generates. */
export async function loadLocalCa(dir: string): Promise<LocalCa> {
  const paths = {
    caKeyPath: join(dir, LocalCaFiles.caKey),
    caCertPath: join(dir, LocalCaFiles.caCert),
    serverKeyPath: join(dir, LocalCaFiles.serverKey),
    serverCertPath: join(dir, LocalCaFiles.serverCert),
  };
  const [caCertPem, serverKeyPem, serverCertPem] = await Promise.all([
    readFile(paths.caCertPath, 'utf8'),
    readFile(paths.serverKeyPath, 'utf8'),
    readFile(paths.serverCertPath, 'utf8'),
    readFile(paths.caKeyPath, 'utf8'),
  ]);
  return { dir, ...paths, caCertPem, serverKeyPem, serverCertPem };
}

function isUsable(ca: LocalCa): boolean {
  try {
    const caCert = new X509Certificate(ca.caCertPem);
    const serverCert = new X509Certificate(ca.serverCertPem);
    const expiresAt = Math.min(Date.parse(caCert.validTo), Date.parse(serverCert.validTo));
    return (
      expiresAt - Date.now() > MinimumRemainingValidityMs &&
      serverCert.checkIssued(caCert) &&
      serverCert.verify(caCert.publicKey) &&
      serverCert.checkPrivateKey(createPrivateKey(ca.serverKeyPem))
    );
  } catch {
    return false;
  }
}

/** The four PEM files of a new set, in the order they are put in place. */
async function generateCa(validityDays: number, caName: string): Promise<[string, string][]> {
  const notBeforeDate = new Date();
  const notAfterDate = new Date(notBeforeDate.getTime() + validityDays * 86_400_000);
  const common = { keyType: 'ec', curve: 'P-256', algorithm: 'sha256', notBeforeDate, notAfterDate } as const;
  const ca = await generate([{ name: 'commonName', value: `${caName} ${randomBytes(4).toString('hex')}` }], {
    ...common,
    extensions: [
      { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const server = await generate([{ name: 'commonName', value: 'localhost' }], {
    ...common,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return [
    [LocalCaFiles.caKey, ca.private],
    [LocalCaFiles.serverKey, server.private],
    [LocalCaFiles.serverCert, server.cert],
    [LocalCaFiles.caCert, ca.cert],
  ];
}
