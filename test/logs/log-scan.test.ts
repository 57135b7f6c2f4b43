import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runLogPath } from '../support/log-capture-run-log';
import { findLogSecrets, type LogSecret, LogSecretKind } from '../support/log-secrets';

/**
 * Runs in the `log-scan` project, after every other test file of the run (vitest.config.ts), and
 * reads what they logged: no log line may hold an API key, a signing secret, a pay-link slug, a
 * card number or an email's body (docs/decisions/logs.md).
 */
const accessLine = '"message":"request handled"';
/**
 * The whole suite logs about 1,300 access lines; far fewer means the capture broke or the
 * scan ran without the suite, and a scan of nothing proves nothing.
 */
const minimumAccessLines = 300;

const path = runLogPath();
const shownPath = relative(process.cwd(), path);
const lines = existsSync(path) ? readFileSync(path, 'utf8').split('\n').slice(0, -1) : undefined;

/** The run log's lines, once it is known to hold this run's requests. */
function scannedLines(): string[] {
  expect(lines, `${shownPath} is missing: the log-capture global setup did not run`).toBeDefined();
  const accessLines = (lines ?? []).filter((line) => line.includes(accessLine)).length;
  expect(
    accessLines,
    `${shownPath} has ${accessLines} access lines, fewer than ${minimumAccessLines}: the scan checks the ` +
      'logs of the tests run with it, so run it with the whole suite (npx vitest run)',
  ).toBeGreaterThanOrEqual(minimumAccessLines);
  return lines ?? [];
}

/**
 * The one place a secret is meant to be shown: the portal link `npm start` prints on its terminal
 * for the developer to open (docs/decisions/merchant-portal-sessions.md). A link opens once and
 * within the hour; any other portal token, or that token on any other line, is a finding.
 */
function printedPortalLink(line: string, secret: LogSecret): boolean {
  const source = /^\[npm start[^\]]* stdout [^\]]*\] /.exec(line);
  return (
    secret.kind === LogSecretKind.portalToken &&
    source !== null &&
    line.startsWith('Merchant portal (manage; the link opens once, until ', source[0].length)
  );
}

describe('the run log', () => {
  it('holds the access lines of the requests this run made', () => {
    const scanned = scannedLines();
    const accessLines = scanned.filter((line) => line.includes(accessLine)).length;
    console.log(`${shownPath}: scanned ${scanned.length} lines, ${accessLines} of them access lines`);
  });

  it('holds no API key, signing secret, pay-link slug, card number or email body', () => {
    const findings = scannedLines().flatMap((line, index) =>
      findLogSecrets(line)
        .filter((secret) => !printedPortalLink(line, secret))
        .map((secret) => {
          const source = line.slice(0, line.indexOf('] ') + 1);
          return `${shownPath}:${index + 1}:${secret.index + 1} ${source} ${secret.kind} ${secret.masked}`;
        }),
    );
    expect(findings, `secrets in ${findings.length} places:\n${findings.join('\n')}`).toEqual([]);
  });
});
