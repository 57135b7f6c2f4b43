/** `INV-000042` → 42 (docs/decisions/invoice-create.md); anything else is NaN. */
export function sequenceOf(invoiceNumber: string): number {
  return /^INV-\d{6,}$/.test(invoiceNumber) ? Number(invoiceNumber.slice(4)) : Number.NaN;
}

export interface NumberingGaps {
  /** Numbers of 1..n that no invoice has. */
  readonly missing: readonly number[];
  /** Numbers more than one invoice has, and numbers that are not of the format. */
  readonly repeated: readonly string[];
}

/** One merchant's invoice numbers against 1..n, n being how many invoices it has (gapless, unique). */
export function numberingGaps(invoiceNumbers: readonly string[]): NumberingGaps {
  const seen = new Set<number>();
  const repeated: string[] = [];
  for (const invoiceNumber of invoiceNumbers) {
    const sequence = sequenceOf(invoiceNumber);
    if (Number.isNaN(sequence) || seen.has(sequence)) repeated.push(invoiceNumber);
    else seen.add(sequence);
  }
  const missing: number[] = [];
  for (let sequence = 1; sequence <= invoiceNumbers.length; sequence += 1) {
    if (!seen.has(sequence)) missing.push(sequence);
  }
  return { missing, repeated };
}
