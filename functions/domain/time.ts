/** ISO 8601 UTC with millisecond precision and `Z`, the only timestamp form the API returns. */
export function isoTimestamp(date: Date): string {
  return date.toISOString();
}

/** Epoch seconds, the unit of the table's TTL attribute. */
export function epochSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
