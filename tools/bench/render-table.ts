import type { BenchRow } from './bench-row';

const headings = ['Section', 'Figure', 'Value', 'Baseline', 'Ratio', 'Budget', 'Result', 'Note'] as const;

function cellsOf(row: BenchRow): string[] {
  return [row.section, row.figure, row.value, row.baseline, row.ratio, row.budget, resultOf(row), row.note];
}

export function resultOf(row: BenchRow): string {
  if (row.ok === undefined) return '—';
  return row.ok ? 'ok' : 'MISSED';
}

/** The rows as a plain text table, columns padded to their widest cell, for a terminal. */
export function renderTextTable(rows: readonly BenchRow[]): string {
  const lines = [[...headings], ...rows.map(cellsOf)];
  const widths = headings.map((_, column) => Math.max(...lines.map((cells) => (cells[column] ?? '').length)));
  const format = (cells: readonly string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [format(lines[0] ?? []), rule, ...lines.slice(1).map(format)].join('\n');
}

/** The rows as a GitHub-flavoured markdown table, for docs/performance.md. */
export function renderMarkdownTable(rows: readonly BenchRow[]): string {
  const escapedCell = (cell: string) => cell.replaceAll('|', '\\|');
  const line = (cells: readonly string[]) => `| ${cells.map(escapedCell).join(' | ')} |`;
  return [line(headings), line(headings.map(() => '---')), ...rows.map((row) => line(cellsOf(row)))].join(
    '\n',
  );
}

/** The last line of a run: how many figures, how many missed their budget, how long it took. */
export function summaryLine(rows: readonly BenchRow[], wallMs: number): string {
  const missed = rows.filter((row) => row.ok === false).length;
  return `${rows.length} figures, ${missed} MISSED, in ${(wallMs / 1000).toFixed(1)} s`;
}
