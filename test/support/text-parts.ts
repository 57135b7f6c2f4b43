/** The parts `text` does not hold, in their order: `[]` when it holds them all. */
export function missingFrom(text: string, parts: readonly string[]): string[] {
  return parts.filter((part) => !text.includes(part));
}
