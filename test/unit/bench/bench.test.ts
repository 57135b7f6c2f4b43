import { describe, expect, it } from 'vitest';
import { parseBenchOptions } from '../../../tools/bench/bench-options';
import {
  formatBudget,
  formatRatio,
  formatValue,
  NoBudget,
  rowOf,
  Unit,
  withinBudget,
} from '../../../tools/bench/bench-row';
import { renderMarkdownTable, renderTextTable, summaryLine } from '../../../tools/bench/render-table';
import { median, percentile } from '../../../tools/bench/statistics';
import { UsageError } from '../../../tools/cli/command-failure';

describe('median', () => {
  it('is the middle sample of an odd count and the mean of the two middle ones of an even count', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('refuses no samples', () => {
    expect(() => median([])).toThrow(RangeError);
  });
});

describe('percentile', () => {
  const samples = Array.from({ length: 200 }, (_, index) => 200 - index);

  it('is the nearest-rank sample: p50 of 1…200 is 100, p99 is 198, p100 the largest', () => {
    expect(percentile(samples, 50)).toBe(100);
    expect(percentile(samples, 99)).toBe(198);
    expect(percentile(samples, 100)).toBe(200);
  });

  it('refuses a percentile outside (0, 100]', () => {
    expect(() => percentile(samples, 0)).toThrow(RangeError);
    expect(() => percentile(samples, 101)).toThrow(RangeError);
  });
});

describe('budgets', () => {
  it('holds a figure to an upper ratio, a lower ratio or an absolute bound', () => {
    expect(withinBudget({ value: 13, baseline: 10, budget: { ratio: 'most', limit: 1.3 } })).toBe(true);
    expect(withinBudget({ value: 14, baseline: 10, budget: { ratio: 'most', limit: 1.3 } })).toBe(false);
    expect(withinBudget({ value: 7, baseline: 10, budget: { ratio: 'least', limit: 0.8 } })).toBe(false);
    expect(withinBudget({ value: 61_441, baseline: 1, budget: { value: 'most', limit: 61_440 } })).toBe(
      false,
    );
    expect(withinBudget({ value: 5, baseline: 1, budget: NoBudget })).toBeUndefined();
  });

  it('prints ratios to two decimals, an infinite one as ∞, and budgets with their bound', () => {
    expect(formatRatio(1.2345)).toBe('1.23×');
    expect(formatRatio(Number.POSITIVE_INFINITY)).toBe('∞');
    expect(formatBudget({ ratio: 'least', limit: 0.8 }, Unit.perSecond)).toBe('≥ 0.8×');
    expect(formatBudget({ value: 'most', limit: 60 * 1024 }, Unit.bytes)).toBe('≤ 60.0 KB');
    expect(formatBudget(NoBudget, Unit.ms)).toBe('—');
  });

  it('prints values in their unit', () => {
    expect(formatValue(12.345, Unit.ms)).toBe('12.3 ms');
    expect(formatValue(1234.5, Unit.ms)).toBe('1235 ms');
    expect(formatValue(900, Unit.bytes)).toBe('900 B');
    expect(formatValue(20_480, Unit.bytes)).toBe('20.0 KB');
    expect(formatValue(930.4, Unit.perSecond)).toBe('930/s');
    expect(formatValue(25, Unit.count)).toBe('25');
    expect(formatValue(405_012_345, Unit.instructions)).toBe('405.0 M instr');
  });
});

describe('the table', () => {
  const rows = [
    rowOf({
      section: 'api',
      figure: 'getProduct p50',
      value: 30,
      baseline: 20,
      unit: Unit.ms,
      budget: { ratio: 'most', limit: 1.5 },
    }),
    rowOf({
      section: 'api',
      figure: 'getProduct p99',
      value: 90,
      baseline: 40,
      unit: Unit.ms,
      budget: NoBudget,
    }),
    rowOf({
      section: 'dispatcher',
      figure: 'deliveries/s',
      value: 10,
      baseline: 100,
      unit: Unit.perSecond,
      budget: { ratio: 'least', limit: 0.8 },
    }),
  ];

  it('prints every figure beside its baseline, ratio, budget and result', () => {
    const lines = renderTextTable(rows).split('\n');
    expect(lines[2]).toMatch(/^api\s+getProduct p50\s+30\.0 ms\s+20\.0 ms\s+1\.50×\s+≤ 1\.5×\s+ok$/);
    expect(lines[3]).toMatch(/getProduct p99\s+90\.0 ms\s+40\.0 ms\s+2\.25×\s+—\s+—$/);
    expect(lines[4]).toMatch(/deliveries\/s\s+10\.0\/s\s+100\/s\s+0\.10×\s+≥ 0\.8×\s+MISSED$/);
  });

  it('writes the same rows as markdown, and counts only budgeted misses', () => {
    expect(renderMarkdownTable(rows).split('\n')).toHaveLength(5);
    expect(summaryLine(rows, 12_340)).toBe('3 figures, 1 MISSED, in 12.3 s');
  });
});

describe('parseBenchOptions', () => {
  it('runs every section, 20 processes per function, by default', () => {
    expect(parseBenchOptions([])).toMatchObject({
      help: false,
      runs: 20,
      importCpu: undefined,
      strict: false,
      markdown: undefined,
    });
    expect(parseBenchOptions([]).sections).toHaveLength(8);
  });

  it('reads sections, runs, the import measure, strict and the markdown path', () => {
    expect(
      parseBenchOptions([
        '--section',
        'bundles',
        '--runs',
        '2',
        '--import-cpu',
        'time',
        '--strict',
        '--markdown',
        'out.md',
      ]),
    ).toEqual({
      help: false,
      sections: ['bundles'],
      runs: 2,
      importCpu: 'time',
      strict: true,
      markdown: 'out.md',
      functions: [],
    });
    expect(parseBenchOptions(['--import-cpu', 'instructions']).importCpu).toBe('instructions');
  });

  it('reads the functions the bundles section measures', () => {
    expect(
      parseBenchOptions(['--function', 'authorizer/handler', '--function', 'api/catalog/create-product'])
        .functions,
    ).toEqual(['authorizer/handler', 'api/catalog/create-product']);
    expect(parseBenchOptions(['--section', 'bundles', '--function', 'authorizer/handler']).sections).toEqual([
      'bundles',
    ]);
  });

  it.each([
    [['--section', 'nope'], /--section "nope" is not a section: it must be one of round-trips, bundles/],
    [['--runs', '0'], /--runs "0" is not accepted: it must be a whole number from 1 to 100/],
    [['--runs'], /--runs needs a value/],
    [['--fast'], /unknown option "--fast"/],
    [['--import-cpu', 'wall'], /--import-cpu "wall" is not accepted: it must be instructions or time/],
    [
      ['--function', 'authorizer'],
      /--function "authorizer" is not accepted: it must be a module under functions\//,
    ],
    [['--section', 'api', '--function', 'authorizer/handler'], /--function narrows the bundles section/],
  ])('refuses %j with one line saying what is accepted', (args, message) => {
    expect(() => parseBenchOptions(args)).toThrow(UsageError);
    expect(() => parseBenchOptions(args)).toThrow(message);
  });
});
