import { spawn } from 'node:child_process';
import { endWithThisProcess } from '../../tools/local/orphan-watchdog';

/**
 * A process for the tests of endWithThisProcess: `node --import tsx <this file> <child> <grace>`.
 * It starts `sh -c <child>` under the watchdog with that grace in seconds, prints `child <pid>`, and
 * then stays until it is killed.
 */
const [command = 'exec sleep 300', grace = '5'] = process.argv.slice(2);
const child = spawn('sh', ['-c', command], { stdio: 'ignore' });
endWithThisProcess(child, { graceSeconds: Number(grace) });
child.once('exit', () => console.log('child exited'));
// Stands for the servers a real process keeps open.
setInterval(() => {}, 60_000);
console.log(`child ${child.pid}`);
