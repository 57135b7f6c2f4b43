import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixedPortFindings, withoutCommentsAndRegExps } from './fixed-ports';
import { projectRoot } from './function-spans';
import { filesUnder } from './import-graph';

/** The checker and this file hold fixed ports on purpose, as the samples it must find. */
const samplesOfTheCheck = new Set([
  'test/unit/structure/fixed-ports.ts',
  'test/unit/structure/fixed-ports.test.ts',
]);

/**
 * Where the check finds nothing to flag: a starter's own body, whose callers are checked in its
 * place (`startLocalEntry` hands on the env it is given, as it says).
 */
const starterDefinitions = new Set(['test/support/local-entry.ts']);

describe('no test depends on a port being free on this machine', () => {
  it('every server a test starts listens on a free port, and no test connects to a fixed one', () => {
    const findings = filesUnder('test')
      .filter((file) => !samplesOfTheCheck.has(file) && !starterDefinitions.has(file))
      .flatMap((file) =>
        fixedPortFindings(readFileSync(join(projectRoot, file), 'utf8')).map(
          ({ line, problem }) => `${file}:${line}: ${problem}`,
        ),
      );
    expect(findings).toEqual([]);
  });
});

describe('fixedPortFindings', () => {
  it('finds the runtime started without PORT, which then listens on 3000', () => {
    // As npm-start.test.ts had it: the helper hands on an env that names no port.
    const sample = [
      'const startLocal = (env: NodeJS.ProcessEnv) =>',
      "  startLocalEntry(['--in-memory'], env, import.meta.filename);",
      "const { child } = startLocal({ PATH: '/nonexistent', LOCAL_STATE_DIR: stateDir });",
    ].join('\n');
    expect(fixedPortFindings(sample)).toEqual([
      {
        line: 2,
        problem:
          'starts startLocalEntry (npm start) without PORT: it listens on its fixed default (give PORT 0)',
      },
    ]);
  });

  it('passes the same helper once it gives PORT 0 before the env, which may still name another', () => {
    const sample = "startLocalEntry(['--in-memory'], { PORT: '0', ...env }, import.meta.filename);";
    expect(fixedPortFindings(sample)).toEqual([]);
  });

  it.each([
    ['a fixed PORT', "startLocalEntry([], { PORT: '3000' }, file);", 'with a fixed PORT'],
    [
      'npm start without PORT',
      "npm(['start', '--', '--in-memory'], { LOCAL_STATE_DIR: dir });",
      'npm start without PORT',
    ],
    [
      'npm run webhook-receiver without RECEIVER_PORT',
      "npm(['run', 'webhook-receiver'], { RECEIVER_DIR: dir });",
      'without RECEIVER_PORT',
    ],
    [
      'the receiver on its default',
      'await startWebhookReceiver({ dir });',
      'startWebhookReceiver without port',
    ],
    ['the receiver on a fixed port', 'await startWebhookReceiver({ port: 4443, dir });', 'with a fixed port'],
    [
      'the in-process runtime on a fixed port',
      "startLocalRuntime({ settings: readLocalSettings({ PORT: '8080' }) });",
      'with a fixed PORT',
    ],
    ['a literal listen', 'server.listen(8080, host);', 'listens on a fixed port'],
    ['a literal listen in options', 'server.listen({ port: 3000, host });', 'listens on a fixed port'],
    [
      'a fetch of a fixed loopback port',
      "await fetch('http://127.0.0.1:3000/health');",
      'fixed loopback port',
    ],
    ['a request of localhost', 'request(`https://localhost:4443/in`, options);', 'fixed loopback port'],
    ['a socket to a fixed port', "connect({ host: '127.0.0.1', port: 1 });", 'connects to a fixed port'],
  ])('flags %s', (_name, sample, problem) => {
    const findings = fixedPortFindings(sample);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.problem).toContain(problem);
  });

  it.each([
    ['port 0', 'server.listen(0, host);'],
    ['the port a server reports', "await fetch('http://127.0.0.1:' + String(port) + '/health');"],
    ['a setting parsed, not listened on', "expect(readLocalSettings({ PORT: '8080' }).PORT).toBe(8080);"],
    [
      'a URL parsed, not connected to',
      "expect(parse('https://localhost:8443/in')).toMatchObject({ port: 8443 });",
    ],
    ['a port given as a variable', 'await startWebhookReceiver({ port, dir });'],
    ['a comment', "// startLocalEntry([], env, file) would listen on 3000; don't"],
  ])('passes %s', (_name, sample) => {
    expect(fixedPortFindings(sample)).toEqual([]);
  });

  it('reads through comments and regular expressions holding quotes, keeping line numbers', () => {
    const sample = [
      "// the runtime's port",
      "const error = /isn't free/;",
      "/* a block that doesn't close a string */",
      'startLocalEntry([], env, file);',
    ].join('\n');
    expect(withoutCommentsAndRegExps(sample).split('\n')).toHaveLength(4);
    expect(fixedPortFindings(sample).map((finding) => finding.line)).toEqual([4]);
  });
});
