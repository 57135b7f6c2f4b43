/**
 * What kind of destination an IP address literal is, for the SSRF guard of webhook deliveries
 * (DESIGN §4 "Webhook URL"). Only `public` addresses may receive a delivery; the local runtime
 * may also allow `loopback` (DESIGN §5, WEBHOOK_ALLOW_PRIVATE_TARGETS).
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

const ipv4Octet = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
/**
 * Only the canonical dotted-quad: four decimal octets without leading zeros. Decimal (2130706433),
 * octal (0177.0.0.1), hex (0x7f.1) and short (127.1) spellings are not addresses here.
 */
const ipv4Pattern = new RegExp(`^${ipv4Octet}(?:\\.${ipv4Octet}){3}$`);
const ipv6Group = /^[0-9A-Fa-f]{1,4}$/;

/** The 32-bit value of a canonical dotted-quad, or undefined. */
function parseIpv4(text: string): number | undefined {
  if (!ipv4Pattern.test(text)) return undefined;
  return text.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

function parseGroups(text: string): number[] | undefined {
  if (text === '') return [];
  const groups = text.split(':');
  return groups.every((group) => ipv6Group.test(group))
    ? groups.map((group) => Number.parseInt(group, 16))
    : undefined;
}

/**
 * The 128-bit value of an IPv6 literal (RFC 4291 §2.2 text forms, with `::` and a dotted-quad
 * tail). A zone id (`fe80::1%eth0`) is refused: it has no meaning for a remote destination.
 */
function parseIpv6(text: string): bigint | undefined {
  const lastColon = text.lastIndexOf(':');
  if (lastColon < 0) return undefined;
  let head = text;
  let tail: number | undefined;
  if (text.slice(lastColon + 1).includes('.')) {
    tail = parseIpv4(text.slice(lastColon + 1));
    if (tail === undefined) return undefined;
    head = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = head.split('::');
  let groups: number[] | undefined;
  if (halves.length === 1) {
    groups = parseGroups(head);
    if (groups?.length !== 8) return undefined;
  } else if (halves.length === 2) {
    const left = parseGroups(halves[0] ?? '');
    const right = parseGroups(halves[1] ?? '');
    // `::` stands for at least one group of zeros.
    if (left === undefined || right === undefined || left.length + right.length > 7) return undefined;
    groups = [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  } else {
    return undefined;
  }
  const value = groups.reduce((sum, group) => (sum << 16n) | BigInt(group), 0n);
  return tail === undefined ? value : value | BigInt(tail);
}

type Prefix<T> = { readonly base: T; readonly bits: number };
type Range<T> = Prefix<T> & { readonly class: AddressClass };

function ipv4Prefix(cidr: string): Prefix<number> {
  const [base = '', bits = ''] = cidr.split('/');
  return { base: parseIpv4(base) ?? Number.NaN, bits: Number(bits) };
}

function ipv4Range(cidr: string, addressClass: AddressClass): Range<number> {
  return { ...ipv4Prefix(cidr), class: addressClass };
}

function inIpv4Prefix(value: number, prefix: Prefix<number>): boolean {
  const size = 2 ** (32 - prefix.bits);
  return Math.floor(value / size) === Math.floor(prefix.base / size);
}

/** IANA IPv4 Special-Purpose Address Registry; whatever is not listed is public unicast. */
const ipv4Ranges: readonly Range<number>[] = [
  ipv4Range('0.0.0.0/8', AddressClass.unspecified),
  ipv4Range('10.0.0.0/8', AddressClass.private),
  ipv4Range('100.64.0.0/10', AddressClass.cgnat),
  ipv4Range('127.0.0.0/8', AddressClass.loopback),
  ipv4Range('169.254.0.0/16', AddressClass.linkLocal),
  ipv4Range('172.16.0.0/12', AddressClass.private),
  // IETF protocol assignments; a few inside are globally reachable, none is a webhook receiver.
  ipv4Range('192.0.0.0/24', AddressClass.reserved),
  ipv4Range('192.0.2.0/24', AddressClass.reserved),
  // Deprecated 6to4 relay anycast (RFC 7526).
  ipv4Range('192.88.99.0/24', AddressClass.reserved),
  ipv4Range('192.168.0.0/16', AddressClass.private),
  ipv4Range('198.18.0.0/15', AddressClass.reserved),
  ipv4Range('198.51.100.0/24', AddressClass.reserved),
  ipv4Range('203.0.113.0/24', AddressClass.reserved),
  ipv4Range('224.0.0.0/4', AddressClass.multicast),
  // Future use, and 255.255.255.255 limited broadcast.
  ipv4Range('240.0.0.0/4', AddressClass.reserved),
];

function classifyIpv4(value: number): AddressClass {
  return ipv4Ranges.find((range) => inIpv4Prefix(value, range))?.class ?? AddressClass.public;
}

function ipv6Prefix(cidr: string): Prefix<bigint> {
  const [base = '', bits = ''] = cidr.split('/');
  return { base: parseIpv6(base) ?? -1n, bits: Number(bits) };
}

function ipv6Range(cidr: string, addressClass: AddressClass): Range<bigint> {
  return { ...ipv6Prefix(cidr), class: addressClass };
}

function inIpv6Prefix(value: bigint, prefix: Prefix<bigint>): boolean {
  const shift = BigInt(128 - prefix.bits);
  return value >> shift === prefix.base >> shift;
}

/** IANA IPv6 Special-Purpose Address Registry, first match wins. */
const ipv6Ranges: readonly Range<bigint>[] = [
  ipv6Range('::/128', AddressClass.unspecified),
  ipv6Range('::1/128', AddressClass.loopback),
  // Local-use NAT64 (RFC 8215): translates to whatever the local network decides.
  ipv6Range('64:ff9b:1::/48', AddressClass.reserved),
  ipv6Range('100::/64', AddressClass.reserved),
  // IETF protocol assignments incl. Teredo, benchmarking and ORCHID: simplest to refuse whole.
  ipv6Range('2001::/23', AddressClass.reserved),
  ipv6Range('2001:db8::/32', AddressClass.reserved),
  ipv6Range('3fff::/20', AddressClass.reserved),
  ipv6Range('5f00::/16', AddressClass.reserved),
  ipv6Range('fc00::/7', AddressClass.private),
  ipv6Range('fe80::/10', AddressClass.linkLocal),
  // Deprecated site-local (RFC 3879), the forerunner of unique local addresses.
  ipv6Range('fec0::/10', AddressClass.private),
  ipv6Range('ff00::/8', AddressClass.multicast),
];

/** Prefixes whose low 32 bits carry the IPv4 address that decides where packets really go. */
const embeddedIpv4Low32: readonly Prefix<bigint>[] = [
  // IPv4-mapped (RFC 4291 §2.5.5.2), in every spelling.
  ipv6Prefix('::ffff:0:0/96'),
  // SIIT IPv4-translated (RFC 2765).
  ipv6Prefix('::ffff:0:0:0/96'),
  // NAT64 well-known prefix (RFC 6052).
  ipv6Prefix('64:ff9b::/96'),
  // Deprecated IPv4-compatible (RFC 4291 §2.5.5.1); `::` and `::1` are matched before.
  ipv6Prefix('::/96'),
];
/** 6to4 (RFC 3056) carries the IPv4 address in bits 16-47. */
const sixToFour = ipv6Prefix('2002::/16');
/** Outside global unicast nothing is public: unassigned space is refused, not trusted. */
const globalUnicast = ipv6Prefix('2000::/3');

function classifyIpv6(value: bigint): AddressClass {
  const special = ipv6Ranges.find((range) => inIpv6Prefix(value, range));
  if (special) return special.class;
  if (embeddedIpv4Low32.some((prefix) => inIpv6Prefix(value, prefix))) {
    return classifyIpv4(Number(value & 0xffffffffn));
  }
  if (inIpv6Prefix(value, sixToFour)) return classifyIpv4(Number((value >> 80n) & 0xffffffffn));
  return inIpv6Prefix(value, globalUnicast) ? AddressClass.public : AddressClass.reserved;
}

/** 4 or 6 for a canonical IPv4 dotted-quad or an IPv6 literal (brackets allowed), else undefined. */
export function addressFamily(ip: string): 4 | 6 | undefined {
  if (parseIpv4(ip) !== undefined) return 4;
  return parseIpv6(unbracket(ip)) === undefined ? undefined : 6;
}

function unbracket(ip: string): string {
  return ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
}

/**
 * Classifies an IP address literal without any lookup. IPv6 forms that carry an IPv4 address
 * (mapped, translated, NAT64, 6to4, IPv4-compatible) are classified by that IPv4 address.
 * Anything that is not a literal (names, `2130706433`, `0x7f.1`) is `invalid`, never `public`.
 */
export function classifyAddress(ip: string): AddressClass {
  const ipv4 = parseIpv4(ip);
  if (ipv4 !== undefined) return classifyIpv4(ipv4);
  const ipv6 = parseIpv6(unbracket(ip));
  return ipv6 === undefined ? AddressClass.invalid : classifyIpv6(ipv6);
}

export function isPublicUnicast(ip: string): boolean {
  return classifyAddress(ip) === AddressClass.public;
}
