import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../../../functions/domain/api-key';
import { UsageError } from '../../../tools/cli/command-failure';
import { receiverPlaceFor } from '../../../tools/smoke/receiver-place';
import { parseSmokeOptions } from '../../../tools/smoke/smoke-options';

const merchant = 'mer_01m8d4w80heh7vtj3cwcztmfy4';
const stage = ['--base-url', 'https://api.example.com/sandbox', '--merchant', merchant];

describe('parseSmokeOptions', () => {
  it('keeps a stage path in the base URL, so routes join below it', () => {
    expect(parseSmokeOptions(stage)).toMatchObject({
      help: false,
      baseUrl: 'https://api.example.com/sandbox/',
      merchantId: merchant,
      keyFile: undefined,
      receiverUrl: undefined,
      timeoutSeconds: 60,
    });
    expect(parseSmokeOptions(['--help']).help).toBe(true);
  });

  it('takes plain http to this machine only', () => {
    for (const base of ['http://127.0.0.1:3000', 'http://localhost:3000/', 'http://[::1]:3000']) {
      expect(parseSmokeOptions(['--base-url', base, '--merchant', merchant]).baseUrl).toMatch(
        /^http:\/\/.*\/$/,
      );
    }
  });

  it.each([
    [
      ['--base-url', 'http://api.example.com', '--merchant', merchant],
      '--base-url "http://api.example.com" is not accepted: plain http would send the key over the network; use https (http:// is for this machine only).',
    ],
    [
      ['--base-url', 'https://user:pw@api.example.com', '--merchant', merchant],
      '--base-url "https://user:pw@api.example.com" is not accepted: it must be an absolute https:// URL without user, query or fragment (http:// for this machine only).',
    ],
    [
      ['--base-url', 'ftp://example.com', '--merchant', merchant],
      '--base-url "ftp://example.com" is not accepted: it must be an absolute https:// URL without user, query or fragment (http:// for this machine only).',
    ],
    [
      ['--merchant', merchant],
      '--base-url is required: npm run smoke -- --base-url <url> --merchant <mer_…> (--help says more).',
    ],
    [
      ['--base-url', 'https://api.example.com', '--merchant', 'mer_1'],
      '--merchant "mer_1" is not accepted: it must be a merchant id, mer_ and 26 characters.',
    ],
    [[...stage, '--timeout', '0'], '--timeout "0" is not accepted: it must be a whole number from 1 to 600.'],
    [
      [...stage, '--receiver-url', 'https://localhost:8443/hooks'],
      '--receiver-url "https://localhost:8443/hooks" is not accepted: it must be a public https:// URL (no fragment) that reaches this machine\'s receiver.',
    ],
    [
      [...stage, '--receiver-port', '9000'],
      '--receiver-host and --receiver-port go with --receiver-url, which they serve.',
    ],
    [
      [...stage, '--verbose'],
      'unknown option --verbose: accepted are --base-url, --merchant, --key-file, --receiver-url, --receiver-host, --receiver-port, --timeout, --help.',
    ],
    [[...stage, '--timeout'], '--timeout needs a value.'],
    [[...stage, '--help=yes'], '--help takes no value.'],
  ])('refuses %j in one line naming what is accepted', (args, message) => {
    expect(() => parseSmokeOptions(args)).toThrow(new UsageError(message));
  });

  it('refuses a key anywhere on the command line without repeating it', () => {
    const key = generateApiKey('sandbox', (size) => randomBytes(size)).apiKey;
    for (const args of [
      [...stage, `--key=${key}`],
      [...stage, key],
      ['--base-url', key, '--merchant', merchant],
    ]) {
      const refusal = (() => {
        try {
          parseSmokeOptions(args);
        } catch (error) {
          return error as Error;
        }
        throw new Error('accepted');
      })();
      expect(refusal).toBeInstanceOf(UsageError);
      expect(refusal.message).not.toContain(key.slice(-43));
    }
  });
});

describe('receiverPlaceFor', () => {
  const options = (args: string[]) => parseSmokeOptions(args);

  it('receives on this machine for a local sandbox, behind the public URL for a deployed one, nowhere in production', () => {
    const local = options(['--base-url', 'http://127.0.0.1:3000', '--merchant', merchant]);
    expect(receiverPlaceFor(local, 'sandbox', '/ca')).toEqual({ kind: 'this-machine', caDir: '/ca' });
    const deployed = options([
      ...stage,
      '--receiver-url',
      'https://hooks.example.com/smoke',
      '--receiver-port',
      '9000',
    ]);
    expect(receiverPlaceFor(deployed, 'sandbox', '/ca')).toEqual({
      kind: 'public',
      url: 'https://hooks.example.com/smoke',
      host: '127.0.0.1',
      port: 9000,
    });
    expect(receiverPlaceFor(options(stage), 'production', '/ca')).toBeUndefined();
  });

  it('refuses a deployed sandbox without --receiver-url, and --receiver-url with a production key', () => {
    expect(() => receiverPlaceFor(options(stage), 'sandbox', '/ca')).toThrow(
      /give --receiver-url <https URL>/,
    );
    const deployed = options([...stage, '--receiver-url', 'https://hooks.example.com/smoke']);
    expect(() => receiverPlaceFor(deployed, 'production', '/ca')).toThrow(
      new UsageError('--receiver-url serves the sandbox round trip: a production key runs no round trip.'),
    );
  });
});
