const months = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/**
 * The date part of an ISO 8601 date or timestamp as written, as
 * `Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' })` writes it (`December 1,
 * 2026`, the way the pay page shows a due date) without loading Intl (see `wholeNumberText`);
 * undefined for anything that is no such date.
 */
export function dateText(value: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (match === null) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  // setUTCFullYear rolls 2026-02-31 into March; a date that does not come back as written is none.
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return `${months[month - 1]} ${day}, ${year}`;
}
