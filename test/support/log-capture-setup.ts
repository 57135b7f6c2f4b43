import { relative } from 'node:path';
import { startRunLog } from './log-capture-run-log';

/**
 * Global setup of the root project, so it runs once per `vitest run` whatever files are selected:
 * empties the run log before any worker forks, and names it in the environment they inherit. The
 * workers send what they print there rather than to the terminal (`log-capture.ts`), so the one
 * line says where to look.
 */
export default function setup(): void {
  const path = startRunLog();
  console.error(`[log-capture] the service's log lines of this run: ${relative(process.cwd(), path)}`);
}
