/** Dates as the pay page shows a due date: `December 1, 2026`, the day as written (UTC). */
let formatter: Intl.DateTimeFormat | undefined;

/**
 * The date part of an ISO 8601 date or timestamp as an email shows it; undefined for anything that
 * is no such date (2026-02-31 included).
 */
export function dateText(value: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (match === null) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  // setUTCFullYear rolls 2026-02-31 into March; a date that does not come back as written is none.
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  formatter ??= new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });
  return formatter.format(date);
}
