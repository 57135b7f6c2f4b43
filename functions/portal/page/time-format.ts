/**
 * A time as the viewer reads it: in their own zone, which it names, with the UTC time in the
 * element's `title` (docs/decisions/merchant-portal-page.md).
 */
export interface DisplayedTime {
  /** E.g. `Mar 4, 2025, 2:05:09 PM GMT+1` in the viewer's locale and zone. */
  readonly text: string;
  /** E.g. `2025-03-04 13:05:09 UTC`. */
  readonly title: string;
}

export interface TimeFormatOptions {
  /** An IANA zone; absent: the viewer's. */
  readonly timeZone?: string;
  /** A BCP 47 locale; absent: the viewer's. */
  readonly locale?: string;
}

/** The displayed time of an ISO 8601 instant; an unreadable one is shown as it came. */
export function displayedTime(iso: string, options: TimeFormatOptions = {}): DisplayedTime {
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) return { text: iso, title: iso };
  const format = new Intl.DateTimeFormat(options.locale, {
    dateStyle: 'medium',
    // `long` adds the zone's name (`UTC`, `GMT+1`, `EST`): a time read without it is ambiguous.
    timeStyle: 'long',
    ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
  });
  const utc = instant.toISOString();
  return { text: format.format(instant), title: `${utc.slice(0, 10)} ${utc.slice(11, 19)} UTC` };
}

/** A duration in milliseconds as a person reads it: `85 ms`, `1.2 s`, `12 s`. */
export function displayedDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const seconds = ms / 1000;
  return seconds < 10 ? `${seconds.toFixed(1)} s` : `${Math.round(seconds)} s`;
}
