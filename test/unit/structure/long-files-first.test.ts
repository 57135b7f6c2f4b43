import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { longFilesFirst } from '../../support/long-files-first';

describe('the long files the sequencer starts first', () => {
  it('are test files that exist, each named once', () => {
    expect(longFilesFirst.filter((file) => !existsSync(file))).toEqual([]);
    expect(new Set(longFilesFirst).size).toBe(longFilesFirst.length);
  });
});
