import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AddressClassLabel, classifyAddress } from '../../../functions/domain/address-class';
import { checkWebhookUrl, maxWebhookUrlLength } from '../../../functions/domain/webhook-url';
import { integerNearBounds } from '../../support/integer-near-bounds';
import { assertProperty } from '../../support/property';

const strict = { allowLoopback: false };

/** Dotted quads in the blocks the rule is about (loopback, private, link-local, CGNAT …) and public ones. */
const specialIpv4 = fc
  .tuple(fc.constantFrom(0, 8, 10, 100, 127, 169, 172, 192, 224, 255), fc.nat(255), fc.nat(255), fc.nat(255))
  .map((octets) => octets.join('.'));
const local = { allowLoopback: true };

function reasonFor(url: string, options = strict): string | undefined {
  const result = checkWebhookUrl(url, options);
  return result.ok ? undefined : result.reason;
}

describe('checkWebhookUrl', () => {
  it('accepts an https URL with a public host name and reports host and default port', () => {
    const result = checkWebhookUrl('https://hooks.example.com/webhooks/payments?source=mp', strict);
    expect(result).toMatchObject({ ok: true, host: 'hooks.example.com', port: 443 });
    expect(result.ok && result.url.href).toBe('https://hooks.example.com/webhooks/payments?source=mp');
  });

  it.each([
    ['https://hooks.example.com:8443/in', 8443],
    ['https://hooks.example.com:1/in', 1],
    ['https://hooks.example.com:65535/in', 65535],
    ['https://hooks.example.com:443/in', 443],
  ])('accepts any explicit port from 1 to 65535 (%s)', (url, port) => {
    expect(checkWebhookUrl(url, strict)).toMatchObject({ ok: true, port });
  });

  it.each([
    'https://8.8.8.8/hook',
    'https://1.1.1.1:8443/hook',
    'https://[2606:4700:4700::1111]/hook',
    'https://[::ffff:8.8.8.8]/hook',
  ])('accepts a public IP literal (%s)', (url) => {
    expect(checkWebhookUrl(url, strict).ok).toBe(true);
  });

  it('gives the IPv6 host without brackets, as it is resolved and connected to', () => {
    expect(checkWebhookUrl('https://[2606:4700:4700::1111]:8443/', strict)).toMatchObject({
      ok: true,
      host: '2606:4700:4700::1111',
      port: 8443,
    });
  });

  it('normalizes the host name as WHATWG URL does (lower case, punycode)', () => {
    expect(checkWebhookUrl('HTTPS://Hooks.Example.COM/In', strict)).toMatchObject({
      ok: true,
      host: 'hooks.example.com',
    });
    expect(checkWebhookUrl('https://bücher.example/hook', strict)).toMatchObject({
      ok: true,
      host: 'xn--bcher-kva.example',
    });
  });

  it.each(['http://hooks.example.com/in', 'ftp://hooks.example.com/in', 'wss://hooks.example.com/in'])(
    'refuses a scheme other than https (%s)',
    (url) => {
      expect(reasonFor(url)).toBe('must use https.');
    },
  );

  it.each(['hooks.example.com/in', '/webhooks', '', 'https://', 'https://exa mple.com/', 'https://[::1/'])(
    'refuses text that is not an absolute URL (%j)',
    (url) => {
      expect(reasonFor(url)).toMatch(/^must (be an absolute URL|not contain spaces)/);
    },
  );

  it(`accepts a URL of exactly ${maxWebhookUrlLength} characters and refuses one longer`, () => {
    const prefix = 'https://hooks.example.com/';
    const longest = prefix + 'a'.repeat(maxWebhookUrlLength - prefix.length);
    expect(checkWebhookUrl(longest, strict).ok).toBe(true);
    expect(reasonFor(`${longest}a`)).toBe('must be at most 2048 characters.');
  });

  it.each([
    'https://user:secret@hooks.example.com/in',
    'https://user@hooks.example.com/in',
    'https://:secret@hooks.example.com/in',
    'https://@hooks.example.com/in',
  ])('refuses user-info (%s)', (url) => {
    expect(reasonFor(url)).toBe('must not contain a user name or password.');
  });

  it.each(['https://hooks.example.com/in#section', 'https://hooks.example.com/in#'])(
    'refuses a fragment, which would never be sent (%s)',
    (url) => {
      expect(reasonFor(url)).toBe('must not contain a fragment (#…); fragments are never sent.');
    },
  );

  it.each([' https://hooks.example.com/', 'https://hooks.example.com/\n', 'https://hooks.exa\tmple.com/'])(
    'refuses spaces and control characters that URL parsing would silently drop (%j)',
    (url) => {
      expect(reasonFor(url)).toBe('must not contain spaces or control characters.');
    },
  );

  it('refuses port 0', () => {
    expect(reasonFor('https://hooks.example.com:0/')).toBe('must have a port from 1 to 65535.');
  });

  it.each([
    ['https://127.0.0.1/', 'loopback'],
    ['https://127.255.255.254:8443/', 'loopback'],
    ['https://[::1]/', 'loopback'],
    ['https://10.0.0.1/', 'private'],
    ['https://172.16.5.4/', 'private'],
    ['https://192.168.1.1/', 'private'],
    ['https://[fd12:3456::1]/', 'private'],
    ['https://169.254.169.254/latest/meta-data/', 'link-local'],
    ['https://[fe80::1]/', 'link-local'],
    ['https://100.64.0.1/', 'carrier-grade NAT'],
    ['https://224.0.0.1/', 'multicast'],
    ['https://[ff02::1]/', 'multicast'],
    ['https://0.0.0.0/', 'unspecified'],
    ['https://[::]/', 'unspecified'],
    ['https://192.0.2.10/', 'reserved'],
    ['https://255.255.255.255/', 'reserved'],
    ['https://[2001:db8::1]/', 'reserved'],
    ['https://[::ffff:127.0.0.1]/', 'loopback'],
    ['https://[::ffff:7f00:1]/', 'loopback'],
    ['https://[0:0:0:0:0:ffff:7f00:1]/', 'loopback'],
    ['https://[::ffff:10.0.0.1]/', 'private'],
    ['https://[::ffff:169.254.169.254]/', 'link-local'],
    ['https://[64:ff9b::a9fe:a9fe]/', 'link-local'],
    ['https://[2002:a00:1::1]/', 'private'],
  ])('refuses the IP literal %s, a %s address', (url, label) => {
    expect(reasonFor(url)).toBe(`must name a public host; this address is ${label}.`);
  });

  it.each([
    'https://2130706433/',
    'https://0177.0.0.1/',
    'https://0x7f.1/',
    'https://0x7f000001/',
    'https://127.1/',
    'https://127.0.0.1./',
    'https://127.0.0.%31/',
    'https://017700000001/',
    'https://134744072/',
    'https://0x08.0x08.0x08.0x08/',
  ])('refuses a numeric host not written as a dotted-quad, whatever it points at (%s)', (url) => {
    expect(reasonFor(url)).toBe('must write an IPv4 host as four decimal numbers (a.b.c.d).');
    expect(reasonFor(url, local)).toBe('must write an IPv4 host as four decimal numbers (a.b.c.d).');
  });

  it('refuses every host that URL parsing reads as an IPv4 number unless written canonically', () => {
    assertProperty(
      fc.property(
        fc.oneof(fc.ipV4Extended(), fc.ipV4(), specialIpv4),
        fc.boolean(),
        (host, allowLoopback) => {
          const result = checkWebhookUrl(`https://${host}/hook`, { allowLoopback });
          const canonical = new URL(`https://${host}/`).hostname === host;
          const addressClass = classifyAddress(new URL(`https://${host}/`).hostname);
          const accepted = addressClass === 'public' || (addressClass === 'loopback' && allowLoopback);
          const expected = !canonical
            ? 'must write an IPv4 host as four decimal numbers (a.b.c.d).'
            : accepted
              ? undefined
              : `must name a public host; this address is ${AddressClassLabel[addressClass]}.`;
          expect(result.ok ? undefined : result.reason).toBe(expected);
        },
      ),
    );
  });

  it('accepts exactly the ports 1 to 65535', () => {
    assertProperty(
      fc.property(integerNearBounds({ min: 0, max: 65535, reach: 3 }), (port) => {
        const result = checkWebhookUrl(`https://hooks.example.com:${port}/in`, strict);
        if (port === 0) expect(result).toEqual({ ok: false, reason: 'must have a port from 1 to 65535.' });
        else if (port < 0 || port > 65535)
          expect(result).toEqual({ ok: false, reason: 'must be an absolute URL.' });
        else expect(result).toMatchObject({ ok: true, port });
      }),
      { examples: [[-1], [0], [1], [65535], [65536]] },
    );
  });

  it(`accepts exactly the URLs of at most ${maxWebhookUrlLength} characters`, () => {
    const prefix = 'https://hooks.example.com/';
    assertProperty(
      fc.property(
        integerNearBounds({ min: prefix.length + 3, max: maxWebhookUrlLength, reach: 3 }),
        fc.constantFrom('a', '%20', 'é'),
        (length, filler) => {
          const path = filler.repeat(Math.ceil((length - prefix.length) / filler.length));
          const url = (prefix + path).slice(0, length);
          expect(checkWebhookUrl(url, strict).ok).toBe(url.length <= maxWebhookUrlLength);
        },
      ),
    );
  });

  it.each(['https://localhost/', 'https://LOCALHOST:8443/', 'https://api.localhost/'])(
    'refuses localhost without allowLoopback (%s)',
    (url) => {
      expect(reasonFor(url)).toBe('must not name localhost.');
    },
  );

  it.each([
    'https://localhost/',
    'https://localhost:8443/in',
    'https://receiver.localhost/in',
    'https://127.0.0.1:4443/in',
    'https://127.9.8.7/in',
    'https://[::1]:4443/in',
  ])('accepts loopback with allowLoopback (%s)', (url) => {
    expect(checkWebhookUrl(url, local).ok).toBe(true);
  });

  it.each([
    ['https://10.0.0.1/', 'private'],
    ['https://192.168.1.1/', 'private'],
    ['https://169.254.169.254/', 'link-local'],
    ['https://100.64.0.1/', 'carrier-grade NAT'],
    ['https://[fd00::1]/', 'private'],
    ['https://0.0.0.0/', 'unspecified'],
  ])('still refuses %s with allowLoopback, a %s address', (url, label) => {
    expect(reasonFor(url, local)).toBe(`must name a public host; this address is ${label}.`);
  });

  it('keeps every other rule with allowLoopback', () => {
    expect(reasonFor('http://localhost/', local)).toBe('must use https.');
    expect(reasonFor('https://user@localhost/', local)).toBe('must not contain a user name or password.');
    expect(reasonFor('https://printer.local/', local)).toMatch(/\.local names are local/);
  });

  it.each([
    ['https://printer.local/', '.local'],
    ['https://metadata.google.internal/', '.internal'],
    ['https://nas.home.arpa/', '.home.arpa'],
    ['https://localhost.localdomain/', '.localdomain'],
  ])('refuses a name that is local by definition (%s)', (url, suffix) => {
    expect(reasonFor(url)).toBe(`must name a public host; ${suffix} names are local to a network.`);
  });

  it.each(['https://intranet/', 'https://metadata/computeMetadata/v1/', 'https://kubernetes:443/'])(
    'refuses a single-label name, which a resolver completes with its search domains (%s)',
    (url) => {
      expect(reasonFor(url)).toBe('must name a fully qualified host.');
    },
  );

  it.each(['https://hooks.example.com./', 'https://localhost./'])(
    'refuses a host name ending with a dot (%s)',
    (url) => {
      expect(reasonFor(url, local)).toBe('must not end its host name with a dot.');
    },
  );
});
