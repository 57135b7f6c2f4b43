import { setTimeout as sleep } from 'node:timers/promises';
import { stopOnSignals } from '../../tools/cli/stop-on-signals';

/**
 * A process for the tests of stopOnSignals: `node --import tsx <this file> <stop>`, where <stop> is
 * how long stopping takes in ms, `never`, or `unset` (a process still starting). It prints `ready`,
 * `stopping`, `stopped` and `exit <code>` on stdout as they happen.
 */
const stopTakes = process.argv[2] ?? '0';
const handlers = stopOnSignals({ log: (line) => console.error(line), parentCheckMs: 100 });
process.on('exit', (code) => console.log(`exit ${code}`));
if (stopTakes !== 'unset') {
  handlers.stopWith(async () => {
    console.log('stopping');
    if (stopTakes === 'never') await new Promise(() => {});
    else await sleep(Number(stopTakes));
    console.log('stopped');
  });
}
// Stands for the servers a real process keeps open.
setInterval(() => {}, 60_000);
console.log('ready');
