import { UsageError } from '../cli/command-failure';

export interface SoakOptions {
  readonly help: boolean;
  /** Seconds of API load. */
  readonly durationSeconds: number;
}

export const DefaultDurationSeconds = 30;
const MaxDurationSeconds = 3_600;

export const soakUsage = `Usage: npm run soak -- [options]

Puts the service under load on this machine: 8 connections of invoice creates, gets and lists, and
webhook events to a receiver that fails 30 % of deliveries. Prints what it sent and what it found,
and exits 1 when any promise was broken (5xx, an unreadable create, a gap in invoice numbers, a
delivery not final, over 5 attempts, a bad signature or a duplicate).

Options:
  --duration <s>  Seconds of load, 1-${MaxDurationSeconds} (default ${DefaultDurationSeconds}); the events scale with it
  --help          Print this and exit`;

/** Reads the command line; anything it does not accept is a `UsageError` naming what is. */
export function parseSoakOptions(args: readonly string[]): SoakOptions {
  let durationSeconds = DefaultDurationSeconds;
  let help = false;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (arg === '--help' || arg === '-h') help = true;
    else if (arg === '--duration') {
      const value = args[index + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`${arg} needs a value.`);
      index += 1;
      durationSeconds = durationOf(value);
    } else {
      throw new UsageError(`unknown option ${JSON.stringify(arg)}: accepted are --duration and --help.`);
    }
  }
  return { help, durationSeconds };
}

function durationOf(value: string): number {
  const seconds = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(seconds >= 1 && seconds <= MaxDurationSeconds)) {
    throw new UsageError(
      `--duration ${JSON.stringify(value)} is not accepted: it must be a whole number of seconds from 1 to ${MaxDurationSeconds}.`,
    );
  }
  return seconds;
}

/** 1,000 events for the 30 s run, and as many per second of load for any other duration. */
export function eventCountFor(durationSeconds: number): number {
  return Math.max(1, Math.round((durationSeconds * 1_000) / DefaultDurationSeconds));
}
