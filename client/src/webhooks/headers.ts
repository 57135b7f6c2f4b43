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
 * Whether the request has no header at all; of a `get`-only object, which cannot be listed,
 * whether it has none of `names`.
 */
export function holdsNoHeader(headers: WebhookHeaders, names: readonly string[]): boolean {
  if (typeof headers.get !== 'function') return Object.keys(headers).length === 0;
  const each = (headers as Partial<Enumerable>).forEach;
  if (typeof each !== 'function') return names.every((name) => headerValue(headers, name) === undefined);
  let any = false;
  each.call(headers, () => {
    any = true;
  });
  return !any;
}
