import { UsageError } from '../cli/command-failure';

/** The sections of the bench, in the order a full run measures them. */
export const BenchSections = [
  'round-trips',
  'bundles',
  'api',
  'hostile-bodies',
  'events',
  'fan-out',
  'dispatcher',
  'filters',
] as const;
export type BenchSection = (typeof BenchSections)[number];

/**
 * How the bundles section measures an import's CPU: the instructions it executes, counted by
 * valgrind (within a few percent, whatever the load), or its CPU time (the median of `--runs`
 * processes, which moves by ±0.05× between runs). Undefined: instructions where valgrind runs.
 */
export const ImportMeasures = ['instructions', 'time'] as const;
export type ImportMeasure = (typeof ImportMeasures)[number];

export interface BenchOptions {
  readonly help: boolean;
  readonly sections: readonly BenchSection[];
  /** Fresh processes per function for import CPU times. */
  readonly runs: number;
  /** What the import CPU budgets are judged on; undefined picks instructions where valgrind runs. */
  readonly importCpu: ImportMeasure | undefined;
  /** Exit 1 when any figure misses its budget. */
  readonly strict: boolean;
  /** Where the table is also written as markdown. */
  readonly markdown: string | undefined;
  /** The functions the bundles section measures (`authorizer/handler`, …); empty: all of them. */
  readonly functions: readonly string[];
}

/** The budgets are defined on the median of 20 interleaved processes (docs/performance.md "Bundle budgets"). */
export const DefaultRuns = 20;
const MaxRuns = 100;

export const benchUsage = `Usage: npm run bench -- [options]

Measures the service on this machine and prints one table: every figure beside its same-run
baseline, the ratio, the budget and ok or MISSED. Exits 0 when it ran, whatever it measured.

Options:
  --section <name>   Run one section only (repeat for more): ${BenchSections.join(', ')}
  --runs <n>         Fresh Node processes per function for import CPU times, 1-${MaxRuns} (default ${DefaultRuns})
  --import-cpu <m>   What the import CPU budgets judge: instructions (counted by valgrind, the
                     default where it is installed) or time (the median of --runs processes)
  --function <name>  Bundles section only: measure this function alone (repeat for more), by its
                     module under functions/, like authorizer/handler; default every function
  --markdown <path>  Also write the table as markdown to <path>
  --strict           Exit 1 when any figure is MISSED
  --help             Print this and exit`;

/** Reads the command line; anything it does not accept is a `UsageError` naming what is. */
export function parseBenchOptions(args: readonly string[]): BenchOptions {
  const sections: BenchSection[] = [];
  let runs = DefaultRuns;
  let strict = false;
  let help = false;
  let markdown: string | undefined;
  let importCpu: ImportMeasure | undefined;
  const functions: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    const optionValue = () => {
      const value = args[index + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`${arg} needs a value.`);
      index += 1;
      return value;
    };
    if (arg === '--help' || arg === '-h') help = true;
    else if (arg === '--strict') strict = true;
    else if (arg === '--section') sections.push(sectionOf(optionValue()));
    else if (arg === '--runs') runs = runsOf(optionValue());
    else if (arg === '--markdown') markdown = optionValue();
    else if (arg === '--import-cpu') importCpu = importMeasureOf(optionValue());
    else if (arg === '--function') functions.push(functionOf(optionValue()));
    else
      throw new UsageError(
        `unknown option ${JSON.stringify(arg)}: accepted are --section, --runs, --import-cpu, --function, --markdown, --strict and --help.`,
      );
  }
  if (functions.length > 0 && sections.length > 0 && !sections.includes('bundles')) {
    throw new UsageError('--function narrows the bundles section: run it with --section bundles.');
  }
  return {
    help,
    sections: sections.length === 0 ? BenchSections : BenchSections.filter((name) => sections.includes(name)),
    runs,
    importCpu,
    strict,
    markdown,
    functions,
  };
}

function importMeasureOf(value: string): ImportMeasure {
  const measure = ImportMeasures.find((name) => name === value);
  if (measure === undefined) {
    throw new UsageError(
      `--import-cpu ${JSON.stringify(value)} is not accepted: it must be ${ImportMeasures.join(' or ')}.`,
    );
  }
  return measure;
}

/** A function's module under `functions/`; the bundles section says whether the stack has it. */
function functionOf(value: string): string {
  if (!/^[a-z0-9-]+(\/[a-z0-9-]+)+$/.test(value)) {
    throw new UsageError(
      `--function ${JSON.stringify(value)} is not accepted: it must be a module under functions/, like authorizer/handler.`,
    );
  }
  return value;
}

function sectionOf(value: string): BenchSection {
  const section = BenchSections.find((name) => name === value);
  if (section === undefined) {
    throw new UsageError(
      `--section ${JSON.stringify(value)} is not a section: it must be one of ${BenchSections.join(', ')}.`,
    );
  }
  return section;
}

function runsOf(value: string): number {
  const runs = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(runs >= 1 && runs <= MaxRuns)) {
    throw new UsageError(
      `--runs ${JSON.stringify(value)} is not accepted: it must be a whole number from 1 to ${MaxRuns}.`,
    );
  }
  return runs;
}
