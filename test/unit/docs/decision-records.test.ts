import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** A screen: 60 rows of 120 characters (docs/decisions/records-fit-on-a-screen.md). */
const screenRows = 60;
const rowWidth = 120;

/** The rows a Markdown text fills: one a line, and one more for each further 120 characters it wraps to. */
function rowsOf(markdown: string): number {
  const lines = markdown.endsWith('\n') ? markdown.slice(0, -1).split('\n') : markdown.split('\n');
  return lines.reduce((rows, line) => rows + Math.max(1, Math.ceil([...line].length / rowWidth)), 0);
}

const folder = new URL('../../../docs/decisions/', import.meta.url);
const records = readdirSync(folder)
  .filter((name) => name.endsWith('.md') && name !== 'README.md')
  .sort();

describe('decision records', () => {
  it('are found', () => {
    expect(records).toEqual(expect.arrayContaining(['idempotency.md', 'local-runtime.md']));
  });

  it.each(records)(`%s fits on a screen: ${screenRows} rows of ${rowWidth} characters`, (record) => {
    expect(rowsOf(readFileSync(new URL(record, folder), 'utf8'))).toBeLessThanOrEqual(screenRows);
  });
});

describe('rowsOf', () => {
  it('counts a row a line, blank ones included, and no row after the last newline', () => {
    expect(rowsOf('# Title\n\n## Context\n')).toBe(3);
    expect(rowsOf('one\ntwo')).toBe(2);
  });

  it('counts a line longer than a row once for each row it wraps to, by characters, not bytes', () => {
    expect(rowsOf(`${'a'.repeat(rowWidth)}\n`)).toBe(1);
    expect(rowsOf(`${'a'.repeat(rowWidth + 1)}\n`)).toBe(2);
    expect(rowsOf(`${'é'.repeat(rowWidth)}\n${'b'.repeat(3 * rowWidth)}\n`)).toBe(4);
  });
});
