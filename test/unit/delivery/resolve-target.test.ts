import type { IncomingMessage } from 'node:http';
import { createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type HostLookup,
  pinnedLookup,
  pinnedRequestOptions,
  type ResolvedAddress,
  resolveTarget,
} from '../../../functions/delivery/resolve-target';
import { createTestCertificates } from '../../support/tls-certificates';

function answering(...answers: ResolvedAddress[]): HostLookup {
  return vi.fn(async () => answers);
}

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });
const hook = new URL('https://hooks.example.com/in');

describe('resolveTarget', () => {
  it('returns the first answer when every answer is public, in the order the resolver gave', async () => {
    const lookup = answering(v6('2606:4700::6810:84e5'), v4('104.16.132.229'));
    expect(await resolveTarget(hook, { allowLoopback: false, lookup })).toEqual({
      ok: true,
      address: '2606:4700::6810:84e5',
      family: 6,
    });
    expect(lookup).toHaveBeenCalledWith('hooks.example.com');
  });

  it('refuses a name that resolves to one public and one private address', async () => {
    const lookup = answering(v4('93.184.215.14'), v4('10.0.0.7'));
    expect(await resolveTarget(hook, { allowLoopback: false, lookup })).toEqual({
      ok: false,
      reason:
        'The host hooks.example.com resolves to 10.0.0.7, a private address; only public addresses are accepted.',
    });
  });

  it.each([
    [v4('169.254.169.254'), 'link-local'],
    [v4('100.100.100.200'), 'carrier-grade NAT'],
    [v6('fd00:ec2::254'), 'private'],
    [v6('::ffff:10.0.0.1'), 'private'],
    [v6('::ffff:7f00:1'), 'loopback'],
    [v4('0.0.0.0'), 'unspecified'],
    [v4('224.0.0.251'), 'multicast'],
  ])('refuses a name with any answer outside public unicast (%o)', async (answer, label) => {
    const result = await resolveTarget(hook, {
      allowLoopback: false,
      lookup: answering(v4('8.8.8.8'), answer),
    });
    expect(result).toEqual({ ok: false, reason: expect.stringContaining(`a ${label} address`) });
  });

  it('accepts loopback answers only with allowLoopback', async () => {
    const lookup = answering(v6('::1'), v4('127.0.0.1'));
    const localhost = new URL('https://localhost:4443/in');
    expect(await resolveTarget(localhost, { allowLoopback: false, lookup })).toMatchObject({ ok: false });
    expect(await resolveTarget(localhost, { allowLoopback: true, lookup })).toEqual({
      ok: true,
      address: '::1',
      family: 6,
    });
  });

  it('still refuses private answers with allowLoopback', async () => {
    const lookup = answering(v4('127.0.0.1'), v4('192.168.1.10'));
    expect(await resolveTarget(hook, { allowLoopback: true, lookup })).toMatchObject({ ok: false });
  });

  it('refuses a name that does not resolve, naming the resolver error', async () => {
    const lookup: HostLookup = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND hooks.example.com'), { code: 'ENOTFOUND' });
    };
    expect(await resolveTarget(hook, { allowLoopback: false, lookup })).toEqual({
      ok: false,
      reason: 'The host hooks.example.com could not be resolved (ENOTFOUND).',
    });
  });

  it('refuses a name with no answers', async () => {
    expect(await resolveTarget(hook, { allowLoopback: false, lookup: answering() })).toEqual({
      ok: false,
      reason: 'The host hooks.example.com has no address.',
    });
  });

  it('vets an IP literal host directly, without a lookup', async () => {
    const lookup = answering(v4('8.8.8.8'));
    expect(await resolveTarget(new URL('https://1.1.1.1/in'), { allowLoopback: false, lookup })).toEqual({
      ok: true,
      address: '1.1.1.1',
      family: 4,
    });
    expect(await resolveTarget(new URL('https://[::1]:4443/'), { allowLoopback: true, lookup })).toEqual({
      ok: true,
      address: '::1',
      family: 6,
    });
    expect(await resolveTarget(new URL('https://10.0.0.1/'), { allowLoopback: true, lookup })).toMatchObject({
      ok: false,
    });
    expect(
      await resolveTarget(new URL('https://2130706433/'), { allowLoopback: false, lookup }),
    ).toMatchObject({
      ok: false,
      reason: expect.stringContaining('127.0.0.1, a loopback address'),
    });
    expect(lookup).not.toHaveBeenCalled();
  });

  it('resolves with the system resolver when no lookup is given (localhost from the hosts file)', async () => {
    const localhost = new URL('https://localhost/');
    const allowed = await resolveTarget(localhost, { allowLoopback: true });
    expect(allowed).toMatchObject({ ok: true, address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/) });
    expect(await resolveTarget(localhost, { allowLoopback: false })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('a loopback address'),
    });
  });
});

describe('pinnedLookup', () => {
  it('answers every query with the vetted address, in both callback shapes', () => {
    const lookup = pinnedLookup('93.184.215.14', 4);
    const single = vi.fn();
    const all = vi.fn();
    lookup('hooks.example.com', {}, single);
    lookup('anything.else', { all: true }, all);
    expect(single).toHaveBeenCalledWith(null, '93.184.215.14', 4);
    expect(all).toHaveBeenCalledWith(null, [{ address: '93.184.215.14', family: 4 }]);
  });
});

describe('pinnedRequestOptions', () => {
  it('sends the host name as SNI, and no SNI for an IP literal', () => {
    expect(pinnedRequestOptions(v4('93.184.215.14'), 'hooks.example.com')).toEqual({
      lookup: expect.any(Function),
      servername: 'hooks.example.com',
    });
    expect(pinnedRequestOptions(v4('1.1.1.1'), '1.1.1.1')).toEqual({ lookup: expect.any(Function) });
  });
});

describe('pinnedRequestOptions with a real https.request', () => {
  let ca: string;
  let server: Server;
  let port: number;
  const seen: { path: string | undefined; host: string | undefined; servername: string | false | null }[] =
    [];

  beforeAll(async () => {
    // A throw-away CA and a certificate it signed for example.test, made on this machine (no network).
    const certificates = await createTestCertificates(['example.test']);
    ca = certificates.ca;
    server = createServer(certificates.server, (req, res) => {
      seen.push({ path: req.url, host: req.headers.host, servername: (req.socket as TLSSocket).servername });
      if (req.url === '/redirect') {
        res.writeHead(302, { location: `https://example.test:${port}/elsewhere` }).end();
      } else {
        res.writeHead(200).end('ok');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  type Reply = { statusCode: number | undefined; remoteAddress: string | undefined };

  function get(hostname: string, path: string): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const req = request({
        hostname,
        port,
        path,
        ca,
        agent: false,
        ...pinnedRequestOptions(v4('127.0.0.1'), hostname),
      });
      req.on('response', (res: IncomingMessage) => {
        // Read before the body ends: with `agent: false` the socket closes right after.
        const reply = { statusCode: res.statusCode, remoteAddress: res.socket.remoteAddress };
        res.resume();
        res.on('end', () => resolve(reply));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('connects to the vetted address while SNI, Host and the certificate check use the host name', async () => {
    // example.test does not resolve anywhere (RFC 6761), so reaching the server at all shows the pin.
    seen.length = 0;
    const res = await get('example.test', '/in');
    expect(res).toEqual({ statusCode: 200, remoteAddress: '127.0.0.1' });
    expect(seen).toEqual([{ path: '/in', host: `example.test:${port}`, servername: 'example.test' }]);
  });

  it('fails the certificate check when the host name is not the certificate’s, despite the pinned address', async () => {
    await expect(get('other.test', '/in')).rejects.toMatchObject({ code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
  });

  it('does not follow a redirect: the 3xx is the response', async () => {
    seen.length = 0;
    const res = await get('example.test', '/redirect');
    expect(res.statusCode).toBe(302);
    expect(seen.map((request) => request.path)).toEqual(['/redirect']);
  });
});
