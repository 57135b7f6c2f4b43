/**
 * Pieces of the URL patterns the API states (webhook URLs, portal origins), as regex sources, so
 * each host and port rule is written once.
 */

/** A DNS label: lower-case letters, digits and inner hyphens, 1–63 characters. */
export const dnsLabelPattern = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';

/** The last label of a host name starts with a letter, so no IP literal matches. */
export const lastDnsLabelPattern = '[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?';

/** An optional `:port`, 1–65535. */
export const portPattern =
  '(?::(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?';

/**
 * An origin as a session may allow it to frame the portal: `https://host[:port]` with a lower-case
 * host name, or `http://` on a loopback host for a page on the developer's machine; no path, no
 * wildcard, nothing that could add a source or a directive to `frame-ancestors`.
 */
export const frameOriginPattern = new RegExp(
  `^(?:https://(?:${dnsLabelPattern}\\.)*${lastDnsLabelPattern}|http://(?:localhost|127\\.0\\.0\\.1|\\[::1\\]))${portPattern}$`,
);
