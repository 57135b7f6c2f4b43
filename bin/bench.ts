import { benchUsage, parseBenchOptions } from '../tools/bench/bench-options';
import { ExitCode, runCommand } from '../tools/cli/command-failure';
import { stopOnSignals } from '../tools/cli/stop-on-signals';
import { runStoppable } from '../tools/cli/stop-registry';

const signals = stopOnSignals();

runCommand(async () => {
  const options = parseBenchOptions(process.argv.slice(2));
  if (options.help) {
    process.stdout.write(`${benchUsage}\n`);
    return;
  }
  // The handlers log a line per request; the table is what the bench prints, so only errors show.
  // The logger reads its level when the handler modules load, hence the import after setting it.
  process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';
  const { runBench } = await import('../tools/bench/run-bench');
  const run = await runStoppable(signals.stopWith, (registerStop) => runBench(options, registerStop));
  // A run that measured everything exits 0 whatever it found, unless asked to hold to the budgets.
  process.exit(options.strict && run.missed > 0 ? ExitCode.failed : ExitCode.ok);
});
