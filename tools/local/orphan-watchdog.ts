import { type ChildProcess, spawn } from 'node:child_process';
import type { Socket } from 'node:net';

/**
 * POSIX sh. Its stdin is a pipe only this process holds, so it reads end-of-file exactly when this
 * process is gone, however it ended; then SIGTERM, and SIGKILL after the grace period. It ignores the
 * signals this process handles itself (a Ctrl-C reaches the whole process group).
 */
const watchdogScript = [
  "trap '' INT HUP TERM",
  'while read -r _; do :; done',
  'kill -TERM "$1" 2>/dev/null || exit 0',
  'waited=0',
  'while [ "$waited" -lt "$2" ]; do sleep 1; kill -0 "$1" 2>/dev/null || exit 0; waited=$((waited + 1)); done',
  'kill -KILL "$1" 2>/dev/null',
].join('; ');

/**
 * Ends `child` when this process ends without stopping it (SIGKILL, a crash), so a JVM never outlives
 * the runtime or test run that started it. The `sh` watchdog is killed as soon as the child exits.
 */
export function endWithThisProcess(
  child: ChildProcess,
  /** `graceSeconds` between SIGTERM and SIGKILL (default 5); `onError` when no watchdog could start. */
  options: { readonly graceSeconds?: number; readonly onError?: (error: Error) => void } = {},
): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const grace = String(options.graceSeconds ?? 5);
  const args = ['-c', watchdogScript, 'orphan-watchdog', String(child.pid), grace];
  const watchdog = spawn('sh', args, { stdio: ['pipe', 'ignore', 'ignore'] });
  watchdog.once('error', (error) => options.onError?.(error));
  // Neither the watchdog nor its pipe may keep this process's event loop alive.
  watchdog.unref();
  (watchdog.stdin as Socket | null)?.unref();
  child.once('exit', () => {
    // Killed before its pipe closes, so it never signals a pid the child no longer holds.
    watchdog.kill('SIGKILL');
    watchdog.stdin?.destroy();
  });
}
