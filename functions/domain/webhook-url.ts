import { AddressClass, AddressClassLabel, addressFamily, classifyAddress } from './address-class';

/** The longest URL an endpoint may have. */
export const maxWebhookUrlLength = 2048;

/**
 * The form an endpoint's URL is stored and shown in: the WHATWG serialization of a URL that
 * `checkWebhookUrl` accepted (scheme and host in lower case, a default port dropped, an empty path
 * as `/`, dot segments resolved, characters percent-encoded), so two spellings of one receiver are
 * one URL, and what is stored is exactly what is called.
 */
export function normalizedWebhookUrl(input: string): string {
  return new URL(input).href;
}

/**
 * Accepted: the WHATWG-normalized `url`, its `host` without IPv6 brackets (what is resolved and sent as
 * SNI) and the effective `port` (443 when none is written). Refused: a `reason` that is the API's detail
 * message on `url`, so it reads as one: "must use https."
 */
export type WebhookUrlCheck =
  | { ok: true; url: URL; host: string; port: number }
  | { ok: false; reason: string };

export type WebhookUrlOptions = {
  /**
   * The local runtime's WEBHOOK_ALLOW_PRIVATE_TARGETS (docs/architecture.md#the-local-runtime): loopback
   * only, nothing else.
   */
  allowLoopback: boolean;
};

/**
 * Names that can only ever mean a machine on the merchant's or our own network: mDNS (RFC 6762),
 * ICANN's private-use `.internal`, home networks (RFC 8375) and the `/etc/hosts` classic. Special-use
 * names that just never resolve (`.test`, `.example`, `.invalid`) are left to fail at delivery.
 */
const localSuffixes = ['.local', '.internal', '.home.arpa', '.localdomain'] as const;

/**
 * Create/update-time check of a webhook URL's text; the addresses a name resolves to are vetted again at
 * every delivery (`resolveTarget`). Rules and reasons: docs/decisions/endpoint-management.md#webhook-urls.
 */
export function checkWebhookUrl(input: string, options: WebhookUrlOptions): WebhookUrlCheck {
  if (input.length > maxWebhookUrlLength) {
    return refuse(`must be at most ${maxWebhookUrlLength} characters.`);
  }
  // WHATWG parsing silently drops tabs and newlines and trims spaces; refusing them keeps the
  // stored URL exactly what the merchant sees.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are the point.
  if (/[\u0000-\u0020\u007f]/.test(input)) {
    return refuse('must not contain spaces or control characters.');
  }
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return refuse('must be an absolute URL.');
  }
  if (url.protocol !== 'https:') return refuse('must use https.');

  const authority = rawAuthority(input);
  if (authority.includes('@') || url.username !== '' || url.password !== '') {
    return refuse('must not contain a user name or password.');
  }
  if (input.includes('#')) {
    return refuse('must not contain a fragment (#…); fragments are never sent.');
  }
  const port = url.port === '' ? 443 : Number(url.port);
  if (port < 1 || port > 65535) return refuse('must have a port from 1 to 65535.');

  const hostCheck = checkHost(url.hostname, rawHost(authority), options);
  if (hostCheck !== undefined) return refuse(hostCheck);
  return { ok: true, url, host: unbracket(url.hostname), port };
}

/** The reason a host is refused, or undefined when it is acceptable. */
function checkHost(hostname: string, written: string, options: WebhookUrlOptions): string | undefined {
  const family = addressFamily(hostname);
  if (family !== undefined) {
    if (family === 4 && written.toLowerCase() !== hostname) {
      return 'must write an IPv4 host as four decimal numbers (a.b.c.d).';
    }
    const addressClass = classifyAddress(hostname);
    if (addressClass === AddressClass.public) return undefined;
    if (addressClass === AddressClass.loopback && options.allowLoopback) return undefined;
    return `must name a public host; this address is ${AddressClassLabel[addressClass]}.`;
  }
  if (hostname.endsWith('.')) return 'must not end its host name with a dot.';
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
    return options.allowLoopback ? undefined : 'must not name localhost.';
  }
  const localSuffix = localSuffixes.find((suffix) => hostname.endsWith(suffix));
  if (localSuffix !== undefined) {
    return `must name a public host; ${localSuffix} names are local to a network.`;
  }
  if (!hostname.includes('.')) return 'must name a fully qualified host.';
  return undefined;
}

/**
 * The authority as written: after `https:` and any slashes (WHATWG also accepts backslashes and
 * none at all for special schemes) up to the path, query or fragment.
 */
function rawAuthority(input: string): string {
  return /^[A-Za-z][A-Za-z0-9+.-]*:[/\\]*([^/\\?#]*)/.exec(input)?.[1] ?? '';
}

/** The host of an authority as written, without user-info and port. */
function rawHost(authority: string): string {
  const hostAndPort = authority.slice(authority.lastIndexOf('@') + 1);
  if (hostAndPort.startsWith('[')) return hostAndPort.slice(0, hostAndPort.indexOf(']') + 1);
  const colon = hostAndPort.indexOf(':');
  return colon < 0 ? hostAndPort : hostAndPort.slice(0, colon);
}

function unbracket(hostname: string): string {
  return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
}

function refuse(reason: string): WebhookUrlCheck {
  return { ok: false, reason };
}
