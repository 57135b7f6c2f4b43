import { relative } from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';

/**
 * Runs a fast-check property the way every property test here runs one, steered by `FC_RUNS_FACTOR`,
 * `FC_SEED` and `FC_PATH` (docs/decisions/property-tests.md).
 */
export function assertProperty<Ts>(property: fc.IProperty<Ts>, params?: fc.Parameters<Ts>): void;
export function assertProperty<Ts>(
  property: fc.IAsyncProperty<Ts>,
  params?: fc.Parameters<Ts>,
): Promise<void>;
export function assertProperty<Ts>(
  property: fc.IProperty<Ts> | fc.IAsyncProperty<Ts>,
  params: fc.Parameters<Ts> = {},
): void | Promise<void> {
  const replay = replayTarget();
  const runParams: fc.Parameters<Ts> = {
    ...params,
    numRuns: (params.numRuns ?? fastCheckDefaultRuns) * propertySettings.runsFactor,
    ...(propertySettings.seed === undefined ? {} : { seed: propertySettings.seed }),
    ...(propertySettings.path === undefined ? {} : { path: propertySettings.path }),
  };
  if (property.isAsync()) {
    return fc.check(property as fc.IAsyncProperty<Ts>, runParams).then((details) => report(details, replay));
  }
  report(fc.check(property as fc.IProperty<Ts>, runParams), replay);
}

/** fast-check's own default, which every property without its own `numRuns` used before. */
const fastCheckDefaultRuns = 100;

export interface PropertySettings {
  readonly runsFactor: number;
  readonly seed: number | undefined;
  readonly path: string | undefined;
}

/** The settings the environment gives, read as a property file loads. */
export const propertySettings = readPropertySettings(process.env);

/**
 * Wrong values stop the file with one line saying what is accepted, rather than running something
 * else; an empty value is no value.
 */
export function readPropertySettings(env: NodeJS.ProcessEnv): PropertySettings {
  const value = (name: string) => (env[name] === '' ? undefined : env[name]);
  const factor = value('FC_RUNS_FACTOR') ?? '1';
  if (!/^[1-9][0-9]{0,5}$/.test(factor)) {
    throw new Error(`FC_RUNS_FACTOR must be a whole number from 1 to 999999, not "${factor}".`);
  }
  const seed = value('FC_SEED');
  // fast-check seeds are 32-bit integers, printed signed.
  if (seed !== undefined && !(/^-?[0-9]{1,10}$/.test(seed) && Math.abs(Number(seed)) <= 2 ** 32)) {
    throw new Error(`FC_SEED must be the integer seed a failed property printed, not "${seed}".`);
  }
  const path = value('FC_PATH');
  if (path !== undefined && !/^[0-9]+(:[0-9]+)*$/.test(path)) {
    throw new Error(`FC_PATH must be the path a failed property printed (like 12:0:3), not "${path}".`);
  }
  if (path !== undefined && seed === undefined) {
    throw new Error('FC_PATH replays a run only together with its FC_SEED.');
  }
  return {
    runsFactor: Number(factor),
    seed: seed === undefined ? undefined : Number(seed),
    path,
  };
}

interface ReplayTarget {
  readonly file: string;
  /** The test's name as `-t` matches it: describe blocks and test name joined by spaces. */
  readonly fullName: string;
}

/** Read before the property runs: an async property reports after the test's own awaits. */
function replayTarget(): ReplayTarget {
  const { testPath, currentTestName } = expect.getState();
  return {
    file: testPath === undefined ? '<test file>' : relative(process.cwd(), testPath),
    fullName: (currentTestName ?? '').split(' > ').join(' '),
  };
}

function report<Ts>(details: fc.RunDetails<Ts>, replay: ReplayTarget): void {
  if (!details.failed) return;
  const message = fc.defaultReportMessage(details) ?? 'Property failed.';
  throw new Error(`${message}\n\nReplay: ${replayCommand(details, replay)}`, {
    cause: details.errorInstance,
  });
}

function replayCommand<Ts>(details: fc.RunDetails<Ts>, { file, fullName }: ReplayTarget): string {
  const env = [
    `FC_SEED=${details.seed}`,
    ...(details.counterexamplePath === null ? [] : [`FC_PATH=${details.counterexamplePath}`]),
    ...(propertySettings.runsFactor === 1 ? [] : [`FC_RUNS_FACTOR=${propertySettings.runsFactor}`]),
  ];
  const pattern = `${fullName.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`;
  return `${env.join(' ')} npx vitest run ${shellQuote(file)} -t ${shellQuote(pattern)}`;
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
