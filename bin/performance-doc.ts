import { runCommand } from '../tools/cli/command-failure';
import { checkOnly, writeOrCheckGenerated } from '../tools/cli/generated-file';
import { stopOnSignals } from '../tools/cli/stop-on-signals';
import { runStoppable } from '../tools/cli/stop-registry';

const signals = stopOnSignals();

/**
 * `npm run performance-doc` measures the cost and capacity models' operations against a DynamoDB
 * Local of its own and writes their tables and figures into docs/performance.md and the gateway
 * decision record; `-- --check` writes nothing and fails when either is stale.
 */
runCommand(async () => {
  const check = checkOnly(process.argv.slice(2));
  // The handlers log a line per request; the documents are what the command makes, so only errors
  // show. The logger reads its level when the handler modules load, hence the imports after this.
  process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';
  const { performanceDocsOnThisMachine } = await import(
    '../tools/performance/performance-docs-on-this-machine'
  );
  const { PerformanceDocPaths, performanceDocUrl } = await import('../tools/performance/performance-docs');
  const docs = await runStoppable(signals.stopWith, (registerStop) =>
    performanceDocsOnThisMachine(registerStop),
  );
  for (const doc of ['performance', 'decision'] as const) {
    await writeOrCheckGenerated({
      path: PerformanceDocPaths[doc],
      url: performanceDocUrl(doc),
      text: docs[doc],
      check,
      regenerate: 'npm run performance-doc',
      written: `Wrote ${PerformanceDocPaths[doc]}.`,
    });
  }
  // What the runtimes leave open (the SDK's sockets, the functions' clients) must not hold the exit.
  process.exit();
});
