import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export type TestCertificates = {
  /** The test CA's certificate (PEM): pass it as `ca` to trust `server`. */
  ca: string;
  /** Key and certificate (PEM) for a TLS server, signed by the test CA. */
  server: { key: string; cert: string };
};

/** A P-256 key and its certificate request or self-signed certificate, with the given subject. */
function newKey(subject: string, keyout: string, out: string, extra: string[]): Promise<unknown> {
  return run('openssl', [
    'req',
    ...extra,
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-subj',
    subject,
    '-keyout',
    keyout,
    '-out',
    out,
  ]);
}

/**
 * A throw-away test CA and a server certificate it signed for `names` (DNS names and IP
 * addresses), made with the `openssl` CLI in a temporary directory that is removed again: no
 * network, nothing left on disk, valid for one day.
 */
export async function createTestCertificates(names: readonly string[]): Promise<TestCertificates> {
  const scratch = await mkdtemp(join(tmpdir(), 'test-certificates-'));
  const file = (name: string) => join(scratch, name);
  try {
    await newKey('/CN=Test CA', file('ca.key'), file('ca.pem'), [
      '-x509',
      '-days',
      '1',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ]);
    await newKey(`/CN=${names[0] ?? 'localhost'}`, file('server.key'), file('server.csr'), ['-new']);
    const altNames = names.map((name) => (/^[\d.]+$|:/.test(name) ? `IP:${name}` : `DNS:${name}`));
    await writeFile(
      file('server.ext'),
      [
        `subjectAltName=${altNames.join(',')}`,
        'basicConstraints=critical,CA:FALSE',
        'extendedKeyUsage=serverAuth',
      ].join('\n'),
    );
    await run('openssl', [
      'x509',
      '-req',
      '-in',
      file('server.csr'),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca.key'),
      '-set_serial',
      '1',
      '-days',
      '1',
      '-extfile',
      file('server.ext'),
      '-out',
      file('server.pem'),
    ]);
    const [ca, key, cert] = await Promise.all(
      ['ca.pem', 'server.key', 'server.pem'].map((name) => readFile(file(name), 'utf8')),
    );
    if (ca === undefined || key === undefined || cert === undefined) throw new Error('openssl wrote no PEM');
    return { ca, server: { key, cert } };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
