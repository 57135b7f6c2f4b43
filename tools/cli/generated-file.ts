import { readFile, writeFile } from 'node:fs/promises';
import { ExitCode, UsageError } from './command-failure';

/** The options of a command that generates a committed file: none, or `--check`. */
export function checkOnly(args: readonly string[]): boolean {
  const unknown = args.filter((arg) => arg !== '--check');
  if (unknown.length > 0)
    throw new UsageError(`unknown option ${unknown.join(' ')}: the only option is --check`);
  return args.includes('--check');
}

/**
 * Writes a generated file, or with `check` only compares it with what is committed: a stale file
 * is one `error:` line naming the command that regenerates it, and exit code 1.
 */
export async function writeOrCheckGenerated(options: {
  /** Relative to the repository root, as messages name it. */
  readonly path: string;
  readonly url: URL;
  readonly text: string;
  readonly check: boolean;
  readonly regenerate: string;
  /** What a write prints. */
  readonly written: string;
}): Promise<void> {
  if (options.check) {
    const current = await readFile(options.url, 'utf8').catch(() => undefined);
    if (current !== options.text) {
      console.error(`error: ${options.path} is stale: run \`${options.regenerate}\` and commit the result.`);
      process.exitCode = ExitCode.failed;
      return;
    }
    console.log(`${options.path} is up to date.`);
    return;
  }
  await writeFile(options.url, options.text);
  console.log(options.written);
}
