/**
 * Where a webhook URL sends, as the quotas on test deliveries and recoveries count it
 * (docs/decisions/quotas-on-test-deliveries-and-recoveries.md): host (with a port other than 443) and
 * path, without the query or the fragment and without trailing slashes, so neither another endpoint
 * record nor another spelling of the same URL opens a new quota.
 */
export function destinationOf(url: string): string {
  const { host, pathname } = new URL(url);
  return `${host.toLowerCase()}${pathname.replace(/\/+$/, '')}`;
}
