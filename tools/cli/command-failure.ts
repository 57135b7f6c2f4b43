import { SettingError } from '../../functions/settings/setting';

/** Exit codes of every command of the project: 2 when the command line or a setting is wrong. */
export const ExitCode = { ok: 0, failed: 1, usage: 2 } as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** The command line is wrong: said in one line, exit 2, before anything is started or written. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** 2 for a wrong command line or setting, 1 for anything else. */
export function exitCodeOf(error: unknown): ExitCode {
  return error instanceof UsageError || error instanceof SettingError ? ExitCode.usage : ExitCode.failed;
}

/** The project's own errors, whose messages already say what is wrong and what to do. */
const ownErrors = new Set([
  'Error',
  'UsageError',
  'SettingError',
  'JavaMissingError',
  'DynamoDbLocalError',
  'KeyFileError',
  'AdminError',
  'OperatorChannelError',
]);

/**
 * One line for stderr, never a stack: our own errors say what is wrong and what is accepted; an
 * unexpected one is its name and message, which is what an engineer needs to search for.
 */
export function failureLine(error: unknown): string {
  const failure = error instanceof Error ? error : new Error(String(error));
  return oneLine(ownErrors.has(failure.name) ? failure.message : `${failure.name}: ${failure.message}`);
}

export function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, ' ').trim();
}

/** Runs a command's main; a failure is printed as `error: …` on one line and sets the exit code. */
export function runCommand(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    process.stderr.write(`error: ${failureLine(error)}\n`);
    process.exit(exitCodeOf(error));
  });
}
