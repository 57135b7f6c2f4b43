import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { descendantsOf, isStillRunning, type ProcessEntry } from './process-tree';

export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface SpawnedProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Settles once the process has exited. */
  readonly exited: Promise<ProcessExit>;
  /**
   * Resolves with the first match in the output; rejects when time runs out or the output ends
   * first (the process and every descendant that shares its output have exited).
   */
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
  /** The processes below it now; each one seen is also remembered for `killAll`. */
  descendants(): ProcessEntry[];
  /** Cleanup: SIGKILL to the process and to every descendant ever seen or still found. */
  killAll(): void;
}

/** Starts a process with piped output, for tests that watch how it starts and stops. */
export function spawnProcess(
  command: string,
  args: readonly string[],
  options: SpawnOptions,
): SpawnedProcess {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error(`${command} could not be started`);
  const pid = child.pid;
  let text = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  let hasExited = false;
  let outputEnded = false;
  const exited = new Promise<ProcessExit>((resolve) =>
    child.once('exit', (code, signal) => {
      hasExited = true;
      resolve({ code, signal });
    }),
  );
  child.once('close', () => {
    outputEnded = true;
    for (const listener of listeners) listener();
  });
  const seen = new Map<number, ProcessEntry>();

  const descendants = () => {
    const found = descendantsOf(pid);
    for (const entry of found) seen.set(entry.pid, entry);
    return found;
  };

  return {
    child,
    pid,
    output: () => text,
    exited,
    waitForOutput: (pattern, timeoutMs) =>
      new Promise((resolve, reject) => {
        const settle = () => {
          listeners.delete(check);
          clearTimeout(timer);
        };
        const check = () => {
          const match = new RegExp(pattern.source, pattern.flags).exec(text);
          if (match) {
            settle();
            resolve(match);
          } else if (outputEnded) {
            settle();
            reject(new Error(`${command} exited before printing ${pattern}. Output:\n${text}`));
          }
        };
        const timer = setTimeout(() => {
          settle();
          reject(
            new Error(`${command} printed nothing matching ${pattern} in ${timeoutMs} ms. Output:\n${text}`),
          );
        }, timeoutMs);
        listeners.add(check);
        check();
      }),
    descendants,
    killAll: () => {
      if (!hasExited) descendants();
      if (!hasExited) child.kill('SIGKILL');
      for (const entry of seen.values()) {
        if (!isStillRunning(entry)) continue;
        try {
          process.kill(entry.pid, 'SIGKILL');
        } catch {
          // It ended between the look and the kill.
        }
      }
    },
  };
}

export interface FinishedProcess {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to its end with its stdout and stderr kept apart; killed past `timeoutMs`. */
export function runToEnd(
  command: string,
  args: readonly string[],
  options: SpawnOptions & { timeoutMs?: number } = {},
): Promise<FinishedProcess> {
  const { timeoutMs = 60_000, ...spawnOptions } = options;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...spawnOptions, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not end in ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
