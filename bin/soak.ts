import { ExitCode, runCommand } from '../lib/cli/command-failure';
import { stopOnSignals } from '../lib/local/stop-on-signals';
import { parseSoakOptions, soakUsage } from '../lib/soak/soak-options';

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
  const { soakOnThisMachine } = await import('../lib/soak/soak-on-this-machine');
  let stopping = false;
  const broken = await soakOnThisMachine(options, (stop) =>
    signals.stopWith(async () => {
      stopping = true;
      await stop();
    }),
  ).catch((error: unknown) => {
    // A run cut short by a stop fails on the parts stopped under it: that is no error, and the
    // stop exits on its own once everything has ended.
    if (stopping) return new Promise<never>(() => undefined);
    throw error;
  });
  process.exit(broken.length > 0 ? ExitCode.failed : ExitCode.ok);
});
