import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { AddressClass, AddressClassLabel, addressFamily, classifyAddress } from '../domain/address-class';

export type AddressFamily = 4 | 6;
export type ResolvedAddress = { address: string; family: AddressFamily };
export type HostLookup = (host: string) => Promise<ResolvedAddress[]>;

export type TargetResolution = ({ ok: true } & ResolvedAddress) | { ok: false; reason: string };

export type ResolveTargetOptions = {
  /**
   * The local runtime's WEBHOOK_ALLOW_PRIVATE_TARGETS (docs/architecture.md#the-local-runtime): loopback
   * only, nothing else.
   */
  allowLoopback: boolean;
  /** Injected by tests; defaults to the system resolver, every answer in the order it came. */
  lookup?: HostLookup;
};

/**
 * The system resolver (getaddrinfo, as `https.request` itself would use), all answers unsorted.
 * `order` needs Node 20.13+/22.1+; older Nodes already default to verbatim order.
 */
export const systemLookup: HostLookup = async (host) => {
  const answers = await dnsLookup(host, { all: true, order: 'verbatim' });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/**
 * Delivery-time SSRF guard (docs/decisions/delivery-pipeline.md): resolves the endpoint's host and refuses it
 * when ANY answer is not public unicast, so a name that mixes a public and a private address
 * cannot be used to reach the private one on a retry or a second connection. Returns the first
 * vetted answer; connect to it with `pinnedRequestOptions` so the socket cannot go anywhere the
 * resolver says later (DNS rebinding). The caller must not follow redirects: a 3xx is a failed
 * attempt (`https.request` never follows them; `fetch` would, so it is not used).
 */
export async function resolveTarget(url: URL, options: ResolveTargetOptions): Promise<TargetResolution> {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const literalFamily = addressFamily(host);
  let answers: ResolvedAddress[];
  if (literalFamily !== undefined) {
    answers = [{ address: host, family: literalFamily }];
  } else {
    try {
      answers = await (options.lookup ?? systemLookup)(host);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException | undefined)?.code;
      return { ok: false, reason: `The host ${host} could not be resolved${code ? ` (${code})` : ''}.` };
    }
  }
  const [first] = answers;
  if (first === undefined) return { ok: false, reason: `The host ${host} has no address.` };
  for (const { address } of answers) {
    const addressClass = classifyAddress(address);
    if (addressClass === AddressClass.public) continue;
    if (addressClass === AddressClass.loopback && options.allowLoopback) continue;
    return {
      ok: false,
      reason: `The host ${host} resolves to ${address}, a ${AddressClassLabel[addressClass]} address; only public addresses are accepted.`,
    };
  }
  return { ok: true, address: first.address, family: first.family };
}

/**
 * A `lookup` for `net`/`tls.connect` (so for `https.request` and undici's `connect` options) that
 * answers every query with the vetted address. Node ≥ 20 asks with `{ all: true }` when it races
 * address families (autoSelectFamily), so both callback shapes are served.
 */
export function pinnedLookup(address: string, family: AddressFamily): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

export type PinnedRequestOptions = { lookup: LookupFunction; servername?: string };

/**
 * Options to spread into `https.request({ hostname, port, path, agent: false, ... })`: the socket
 * connects to the vetted address only, while the `Host` header, SNI and certificate check keep
 * using the hostname. Use `agent: false` (or an agent per target): a shared keep-alive agent could
 * hand out a socket that was opened without this pin. SNI is never an IP address (RFC 6066 §3), so it is left out for literals.
 */
export function pinnedRequestOptions(target: ResolvedAddress, hostname: string): PinnedRequestOptions {
  const lookup = pinnedLookup(target.address, target.family);
  return addressFamily(hostname) === undefined ? { lookup, servername: hostname } : { lookup };
}
