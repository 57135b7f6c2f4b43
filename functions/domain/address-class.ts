import { BlockList, isIP, SocketAddress } from 'node:net';

/**
 * What kind of destination an IP address literal is, for the SSRF guard of webhook deliveries
 * (docs/security.md#a-malicious-webhook-url). Only `public` addresses may receive a delivery; the
 * local runtime may also allow `loopback` (WEBHOOK_ALLOW_PRIVATE_TARGETS). node:net reads the
 * literals and matches the blocks (docs/decisions/endpoint-management.md).
 */
export const AddressClass = {
  public: 'public',
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'link_local',
  cgnat: 'cgnat',
  multicast: 'multicast',
  unspecified: 'unspecified',
  reserved: 'reserved',
  /** Not an IPv4 dotted-quad or IPv6 literal at all (a name, a non-canonical number, garbage). */
  invalid: 'invalid',
} as const;

export type AddressClass = (typeof AddressClass)[keyof typeof AddressClass];

/** How a class reads inside a merchant-facing sentence ("… is a private address"). */
export const AddressClassLabel = {
  public: 'public',
  loopback: 'loopback',
  private: 'private',
  link_local: 'link-local',
  cgnat: 'carrier-grade NAT',
  multicast: 'multicast',
  unspecified: 'unspecified',
  reserved: 'reserved',
  invalid: 'invalid',
} as const satisfies Record<AddressClass, string>;

/**
 * IPv6 blocks whose last 32 bits carry an IPv4 address, which decides where packets really go:
 * IPv4-mapped (RFC 4291 §2.5.5.2, in every spelling), SIIT IPv4-translated (RFC 2765), the NAT64
 * well-known prefix (RFC 6052) and the deprecated IPv4-compatible form (RFC 4291 §2.5.5.1; `::` and
 * `::1` are matched before). 6to4 (RFC 3056) carries it in bits 16–47 instead.
 */
const lastBitsCarriers = ['::ffff:', '::ffff:0:', '64:ff9b::', '::'] as const;

/** A dotted-quad as the two hexadecimal groups of IPv6 text. */
function ipv4Groups(address: string): string {
  const [a = 0, b = 0, c = 0, d = 0] = address.split('.').map(Number);
  return `${(a * 256 + b).toString(16)}:${(c * 256 + d).toString(16)}`;
}

type Block = { readonly list: BlockList; readonly class: AddressClass };

/**
 * The block `cidr` as a BlockList. An IPv4 block also holds its image in every IPv6 block that
 * carries an IPv4 address, so each IPv6 spelling of an IPv4 address takes that address's class.
 */
function block(cidr: string, addressClass: AddressClass): Block {
  const [address = '', text = ''] = cidr.split('/');
  const bits = Number(text);
  const list = new BlockList();
  if (address.includes(':')) {
    list.addSubnet(address, bits, 'ipv6');
  } else {
    list.addSubnet(address, bits, 'ipv4');
    for (const carrier of lastBitsCarriers) list.addSubnet(`${carrier}${address}`, 96 + bits, 'ipv6');
    list.addSubnet(`2002:${ipv4Groups(address)}::`, 16 + bits, 'ipv6');
  }
  return { list, class: addressClass };
}

/**
 * The IANA special-purpose registries (IPv6, then IPv4), first match wins; then public unicast:
 * IPv6 global unicast, and an IPv4 address in any spelling. Outside all of them an IPv6 address is
 * refused, not trusted (unassigned space), and an IPv4 address is public.
 */
function specialPurposeBlocks(): readonly Block[] {
  return [
    block('::/128', AddressClass.unspecified),
    block('::1/128', AddressClass.loopback),
    // Local-use NAT64 (RFC 8215): translates to whatever the local network decides.
    block('64:ff9b:1::/48', AddressClass.reserved),
    block('100::/64', AddressClass.reserved),
    // IETF protocol assignments incl. Teredo, benchmarking and ORCHID: simplest to refuse whole.
    block('2001::/23', AddressClass.reserved),
    block('2001:db8::/32', AddressClass.reserved),
    block('3fff::/20', AddressClass.reserved),
    block('5f00::/16', AddressClass.reserved),
    block('fc00::/7', AddressClass.private),
    block('fe80::/10', AddressClass.linkLocal),
    // Deprecated site-local (RFC 3879), the forerunner of unique local addresses.
    block('fec0::/10', AddressClass.private),
    block('ff00::/8', AddressClass.multicast),
    block('0.0.0.0/8', AddressClass.unspecified),
    block('10.0.0.0/8', AddressClass.private),
    block('100.64.0.0/10', AddressClass.cgnat),
    block('127.0.0.0/8', AddressClass.loopback),
    block('169.254.0.0/16', AddressClass.linkLocal),
    block('172.16.0.0/12', AddressClass.private),
    // IETF protocol assignments; a few inside are globally reachable, none is a webhook receiver.
    block('192.0.0.0/24', AddressClass.reserved),
    block('192.0.2.0/24', AddressClass.reserved),
    // Deprecated 6to4 relay anycast (RFC 7526).
    block('192.88.99.0/24', AddressClass.reserved),
    block('192.168.0.0/16', AddressClass.private),
    block('198.18.0.0/15', AddressClass.reserved),
    block('198.51.100.0/24', AddressClass.reserved),
    block('203.0.113.0/24', AddressClass.reserved),
    block('224.0.0.0/4', AddressClass.multicast),
    // Future use, and 255.255.255.255 limited broadcast.
    block('240.0.0.0/4', AddressClass.reserved),
    block('0.0.0.0/0', AddressClass.public),
    block('2000::/3', AddressClass.public),
  ];
}

/** Built on first use: their ~100 subnets would cost every cold start of a webhook route ~1.5 ms. */
let blocks: readonly Block[] | undefined;

function unbracket(ip: string): string {
  return ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
}

/**
 * 4 for a canonical IPv4 dotted-quad, 6 for an IPv6 literal (RFC 4291 §2.2 text forms, brackets
 * allowed), else undefined. node:net reads only decimal octets without leading zeros, so
 * `2130706433`, `0177.0.0.1`, `0x7f.1` and `127.1` are not addresses here. A zone id
 * (`fe80::1%eth0`) is refused: it has no meaning for a remote destination.
 */
export function addressFamily(ip: string): 4 | 6 | undefined {
  if (isIP(ip) === 4) return 4;
  const ipv6 = unbracket(ip);
  return !ipv6.includes('%') && isIP(ipv6) === 6 ? 6 : undefined;
}

/**
 * Classifies an IP address literal without any lookup. IPv6 forms that carry an IPv4 address
 * (mapped, translated, NAT64, 6to4, IPv4-compatible) are classified by that IPv4 address.
 * Anything that is not a literal (names, `2130706433`, `0x7f.1`) is `invalid`, never `public`.
 */
export function classifyAddress(ip: string): AddressClass {
  const family = addressFamily(ip);
  if (family === undefined) return AddressClass.invalid;
  const address = new SocketAddress({ address: unbracket(ip), family: family === 4 ? 'ipv4' : 'ipv6' });
  blocks ??= specialPurposeBlocks();
  return blocks.find((block) => block.list.check(address))?.class ?? AddressClass.reserved;
}

export function isPublicUnicast(ip: string): boolean {
  return classifyAddress(ip) === AddressClass.public;
}
