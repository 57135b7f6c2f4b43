import { startRunLog } from './log-capture-run-log';

/**
 * Global setup of the root project, so it runs once per `vitest run` whatever files are selected:
 * empties the run log before any worker forks, and names it in the environment they inherit. The
 * workers send what they print there rather than to the terminal (`log-capture.ts`); the log scan
 * names it in vitest's report.
 */
export default function setup(): void {
  startRunLog();
}
