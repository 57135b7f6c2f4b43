import { execFile } from 'node:child_process';
import { createPrivateKey, randomBytes, X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { closeFiles, privateDir } from './private-files';

const execFileAsync = promisify(execFile);

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

// Our own config, so neither the system openssl.cnf nor its default extensions leak into the certificates.
const OpensslConfig = `[req]
distinguished_name = dn
prompt = no
[dn]
CN = placeholder
[ca]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[server]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:localhost, IP:127.0.0.1, IP:::1
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
`;

/**
 * Makes (or, when `dir` already holds a valid set, reuses) an EC P-256 CA and a `localhost` server
 * certificate it signed (SAN localhost, 127.0.0.1, ::1), with the `openssl` CLI. Files are
 * generated in a staging folder and renamed into `dir`, so a reader never sees a half-written key
 * or certificate. A set is reused while both certificates have more than an hour left, the CA
 * signed the server certificate and the server key matches it.
 */
export async function createLocalCa(dir: string, options: LocalCaOptions = {}): Promise<LocalCa> {
  // The folder and its files are this user's only, a set made before included: the CA's key signs
  // what the runtime trusts.
  await privateDir(dir);
  await closeFiles(dir, Object.values(LocalCaFiles));
  const existing = await loadLocalCa(dir).catch(() => undefined);
  if (existing !== undefined && isUsable(existing)) return existing;

  const staging = await mkdtemp(join(dir, '.staging-'));
  try {
    await generate(staging, {
      validityDays: options.validityDays ?? 1,
      caName: options.caName ?? 'merchant-payments local CA',
    });
    // The CA certificate lands last: a caller racing these renames sees a server certificate the CA
    // on disk did not sign, which `isUsable` refuses, instead of a silently mismatched set.
    for (const name of [
      LocalCaFiles.caKey,
      LocalCaFiles.serverKey,
      LocalCaFiles.serverCert,
      LocalCaFiles.caCert,
    ]) {
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

async function generate(dir: string, { validityDays, caName }: Required<LocalCaOptions>): Promise<void> {
  const file = (name: string) => join(dir, name);
  await writeFile(file('openssl.cnf'), OpensslConfig);
  const config = ['-config', file('openssl.cnf')];
  const ecKey = ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256'];
  const days = ['-days', String(validityDays)];

  await openssl([...ecKey, '-out', file(LocalCaFiles.caKey)]);
  await openssl([
    'req',
    '-x509',
    '-new',
    ...config,
    '-key',
    file(LocalCaFiles.caKey),
    '-subj',
    `/CN=${caName} ${randomBytes(4).toString('hex')}`,
    ...days,
    '-sha256',
    '-extensions',
    'ca',
    '-out',
    file(LocalCaFiles.caCert),
  ]);

  await openssl([...ecKey, '-out', file(LocalCaFiles.serverKey)]);
  await openssl([
    'req',
    '-new',
    ...config,
    '-key',
    file(LocalCaFiles.serverKey),
    '-subj',
    '/CN=localhost',
    '-out',
    file('server.csr'),
  ]);
  await openssl([
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file(LocalCaFiles.caCert),
    '-CAkey',
    file(LocalCaFiles.caKey),
    '-set_serial',
    `0x${randomBytes(16).toString('hex')}`,
    ...days,
    '-sha256',
    '-extfile',
    file('openssl.cnf'),
    '-extensions',
    'server',
    '-out',
    file(LocalCaFiles.serverCert),
  ]);
  // openssl honours the umask; the keys of a CA this machine's runtime trusts are for this user only,
  // and so are its certificates, like everything else under `.local/`.
  await closeFiles(dir, Object.values(LocalCaFiles));
}

async function openssl(args: string[]): Promise<void> {
  try {
    await execFileAsync('openssl', args, { timeout: 30_000 });
  } catch (error) {
    const { code, stderr } = error as NodeJS.ErrnoException & { stderr?: string };
    if (code === 'ENOENT') {
      throw new Error('The openssl CLI is needed to make the local CA; install OpenSSL.', { cause: error });
    }
    throw new Error(`openssl ${args[0]} failed: ${stderr?.trim() ?? String(error)}`, { cause: error });
  }
}
