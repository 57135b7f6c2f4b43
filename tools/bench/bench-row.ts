/** What a figure is counted in; it decides how a value is printed. */
export const Unit = {
  ms: 'ms',
  bytes: 'bytes',
  perSecond: '/s',
  count: 'count',
  instructions: 'instructions',
} as const;
export type Unit = (typeof Unit)[keyof typeof Unit];

/**
 * A figure's budget: a bound on its ratio to the baseline (`most` = at most, `least` = at least), or
 * on the value itself where the budget is an absolute size.
 */
export type Budget =
  | { readonly ratio: 'most' | 'least'; readonly limit: number }
  | { readonly value: 'most'; readonly limit: number }
  | { readonly none: true };

/** A figure reported beside its baseline without a budget of its own (a p99, a rate). */
export const NoBudget: Budget = { none: true };

export interface Figure {
  readonly section: string;
  /** What was measured, e.g. `getProduct p50`. */
  readonly figure: string;
  readonly value: number;
  /** The same-run figure it is judged against, and what that baseline is. */
  readonly baseline: number;
  readonly unit: Unit;
  readonly budget: Budget;
  /** A few words the table prints beside the figure (commands sent, the whole-process time, …). */
  readonly note?: string;
}

/** One printed line of the table, every cell already text. */
export interface BenchRow {
  readonly section: string;
  readonly figure: string;
  readonly value: string;
  readonly baseline: string;
  readonly ratio: string;
  readonly budget: string;
  /** Undefined for a figure without a budget. */
  readonly ok: boolean | undefined;
  readonly note: string;
}

/** The ratio of a figure to its baseline; a zero baseline gives 1 for a zero value, else infinity. */
export function ratioOf(value: number, baseline: number): number {
  if (baseline === 0) return value === 0 ? 1 : Number.POSITIVE_INFINITY;
  return value / baseline;
}

export function withinBudget(figure: Pick<Figure, 'value' | 'baseline' | 'budget'>): boolean | undefined {
  const { budget } = figure;
  if ('none' in budget) return undefined;
  if ('value' in budget) return figure.value <= budget.limit;
  const ratio = ratioOf(figure.value, figure.baseline);
  return budget.ratio === 'most' ? ratio <= budget.limit : ratio >= budget.limit;
}

export function rowOf(figure: Figure): BenchRow {
  return {
    section: figure.section,
    figure: figure.figure,
    value: formatValue(figure.value, figure.unit),
    baseline: formatValue(figure.baseline, figure.unit),
    ratio: formatRatio(ratioOf(figure.value, figure.baseline)),
    budget: formatBudget(figure.budget, figure.unit),
    ok: withinBudget(figure),
    note: figure.note ?? '',
  };
}

export function formatRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return '∞';
  return `${ratio.toFixed(2)}×`;
}

export function formatBudget(budget: Budget, unit: Unit): string {
  if ('none' in budget) return '—';
  if ('value' in budget) return `≤ ${formatValue(budget.limit, unit)}`;
  return `${budget.ratio === 'most' ? '≤' : '≥'} ${budget.limit}×`;
}

/** Milliseconds to one decimal below 100, bytes in KB past 10 KB, instructions in millions, rates and counts as they are. */
export function formatValue(value: number, unit: Unit): string {
  switch (unit) {
    case Unit.ms:
      return value < 100 ? `${value.toFixed(1)} ms` : `${Math.round(value)} ms`;
    case Unit.bytes:
      return value < 10 * 1024 ? `${Math.round(value)} B` : `${(value / 1024).toFixed(1)} KB`;
    case Unit.perSecond:
      return `${value < 100 ? value.toFixed(1) : Math.round(value)}/s`;
    case Unit.count:
      return Number.isInteger(value) ? String(value) : value.toFixed(2);
    case Unit.instructions:
      return `${(value / 1e6).toFixed(1)} M instr`;
  }
}
