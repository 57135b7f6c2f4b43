import { startRunLog } from './log-capture-run-log';

/**
 * Global setup of the root project, so it runs once per `vitest run` whatever files are selected:
 * empties the run log before any worker forks, and names it in the environment they inherit.
 */
export default function setup(): void {
  startRunLog();
}
