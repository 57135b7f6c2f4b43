/**
 * A request's headers as a server framework hands them over: Node's `req.headers` (a record whose
 * values may be arrays), or a fetch `Headers` (anything with `get`). Names match case-insensitively.
 */
export type WebhookHeaders =
  | Readonly<Record<string, string | readonly string[] | undefined>>
  | { get(name: string): string | null };

/** The header's value, several values joined by spaces; undefined when absent. */
export function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof headers.get === 'function')
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (key.toLowerCase() !== wanted) continue;
    if (Array.isArray(value)) return value.join(' ');
    return typeof value === 'string' ? value : undefined;
  }
  return undefined;
}

type Enumerable = { forEach(callback: (value: string, name: string) => void): void };

/**
 * The headers as a plain record of lower-case names, whatever form they came in; of a `get`-only
 * object, only the `names` asked for can be read.
 */
export function headerRecord(headers: WebhookHeaders, names: readonly string[]): Record<string, string> {
  const record: Record<string, string> = {};
  if (typeof headers.get === 'function') {
    const each = (headers as Partial<Enumerable>).forEach;
    if (typeof each === 'function')
      each.call(headers, (value, name) => {
        record[name.toLowerCase()] = value;
      });
    else
      for (const name of names) {
        const value = headerValue(headers, name);
        if (value !== undefined) record[name.toLowerCase()] = value;
      }
    return record;
  }
  for (const name of Object.keys(headers)) {
    const value = headerValue(headers, name);
    if (value !== undefined) record[name.toLowerCase()] = value;
  }
  return record;
}
