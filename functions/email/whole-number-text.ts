/**
 * A whole number with its digits grouped in threes, `1,234,567`, as en-US writes it. Written out
 * rather than asked of Intl: the first Intl formatter of a process loads ICU's locale data, which
 * cost a mailer's cold start about as much CPU as a third of a bare function's import
 * (docs/decisions/email-templates.md). `test/unit/email/money-text.test.ts` holds it to Intl's output.
 */
export function wholeNumberText(value: bigint | number): string {
  const digits = String(value < 0 ? -value : value);
  const grouped = digits.replace(/\B(?=(\d{3})+$)/g, ',');
  return value < 0 ? `-${grouped}` : grouped;
}
