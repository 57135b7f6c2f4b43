import { isIPv4 } from 'node:net';

/**
 * A host name of this machine as a URL spells it (`URL.hostname`: IPv6 in brackets): localhost and
 * its subdomains, 127.0.0.0/8 and ::1.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]') return true;
  return isIPv4(host) && host.startsWith('127.');
}
