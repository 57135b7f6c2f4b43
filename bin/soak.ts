import { ExitCode, runCommand } from '../tools/cli/command-failure';
import { stopOnSignals } from '../tools/cli/stop-on-signals';
import { runStoppable } from '../tools/cli/stop-registry';
import { parseSoakOptions, soakUsage } from '../tools/soak/soak-options';

const signals = stopOnSignals();

runCommand(async () => {
  const options = parseSoakOptions(process.argv.slice(2));
  if (options.help) {
    process.stdout.write(`${soakUsage}\n`);
    return;
  }
  // The handlers log a line per request; the report is what the soak prints, so only errors show.
  // The logger reads its level when the handler modules load, hence the import after setting it.
  process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';
  const { soakOnThisMachine } = await import('../tools/soak/soak-on-this-machine');
  const broken = await runStoppable(signals.stopWith, (registerStop) =>
    soakOnThisMachine(options, registerStop),
  );
  process.exit(broken.length > 0 ? ExitCode.failed : ExitCode.ok);
});
