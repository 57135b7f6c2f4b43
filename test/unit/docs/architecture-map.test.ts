import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  checkMap,
  childrenOf,
  type MapProblem,
  mapBlock,
  mapEntries,
  pathsIn,
} from '../../support/architecture-map';

const heading = '## Where each concern lives';
const architecture = readFileSync(new URL('../../../docs/architecture.md', import.meta.url), 'utf8');
const { lines, firstLine } = mapBlock(architecture, heading);
const entries = mapEntries(lines, firstLine);
const { problems, named } = checkMap(entries);
const described = (found: readonly MapProblem[]) => found.map(({ line, problem }) => `${line}: ${problem}`);

/** The problems of a map written out in `lines`, as `line: problem`. */
const problemsOf = (...mapLines: string[]) => described(checkMap(mapEntries(mapLines)).problems);

describe('the folder map of docs/architecture.md#where-each-concern-lives', () => {
  it('reads as the top-level folders, and what functions/ holds beneath them', () => {
    const topLevel = entries.filter(({ parent }) => parent === '').flatMap(({ names }) => names);
    expect(topLevel).toEqual([
      'bin/',
      'stages/',
      'lib/',
      'tools/',
      'functions/',
      'client/',
      'test/',
      'docs/',
    ]);
    expect(entries.filter(({ parent }) => parent === 'functions').length).toBeGreaterThan(10);
  });

  it('names only folders and files the repository holds', () => {
    expect(described(problems)).toEqual([]);
  });

  it.each(['functions', 'lib', 'tools'])('names every folder of %s/', (folder) => {
    expect(childrenOf(folder).filter((path) => !named.has(path))).toEqual([]);
  });

  it.each(['bin', 'stages'])('names every file of %s/', (folder) => {
    expect(childrenOf(folder, true).filter((path) => !named.has(path))).toEqual([]);
  });
});

describe('checkMap', () => {
  it('reads names from their parent, and mentions from the entry, its parent or the root', () => {
    expect(
      problemsOf(
        'bin/          app.ts (CDK app), local.ts',
        'lib/          stack.ts and constructs/',
        'tools/        local/ the local runtime',
        '              admin/ the admin CLI, reading docs/openapi.json',
        'functions/    everything that runs in Lambda',
        '  routes.ts, route-definition.ts   the route table',
        '  api/<resource>/                  routes.ts, schemas.ts; shared ones in api/',
        '  payments/                        Stripe (stripe/ or payments/stripe/)',
      ),
    ).toEqual([]);
  });

  it('finds a folder or file that is not there, by name or by mention', () => {
    expect(
      problemsOf(
        'lib/          stack.ts and metrics/',
        '              stacks.ts',
        'functions/    everything that runs in Lambda',
        '  secrets/, metrics/               sealing secrets; EMF metrics',
        '  http/                            middy steps: logger.ts',
      ),
    ).toEqual([
      '1: mentions metrics/, in none of lib/, ./',
      '1: mentions stacks.ts, in none of lib/, ./',
      '4: names functions/metrics/, not there',
      '5: mentions logger.ts, in none of functions/http/, functions/, ./',
    ]);
  });

  it('holds a placeholder to every folder it matches, and to matching at least one', () => {
    expect(
      problemsOf(
        'functions/    everything that runs in Lambda',
        '  api/<resource>/                  create-invoice.ts',
        '  domain/<area>/                   nothing',
      ),
    ).toEqual([
      '2: mentions create-invoice.ts, in none of functions/api/<resource>/, functions/, ./',
      '3: names functions/domain/<area>/, not there',
    ]);
  });

  it('tells a folder from a file, and finds an entry that names nothing', () => {
    expect(problemsOf('bin/          app.ts/ and README.md', 'the lib folder  and more')).toEqual([
      '1: mentions app.ts/, in none of bin/, ./',
      '2: names no path in its first column',
    ]);
  });

  it('counts as named only what the map names and the folders above it', () => {
    const { named: fixture } = checkMap(mapEntries(['functions/    Lambda', '  payments/   stripe/']));
    expect([...fixture].sort()).toEqual(['functions', 'functions/payments', 'functions/payments/stripe']);
  });
});

describe('pathsIn', () => {
  it('takes folders ending in a slash, files with an extension and placeholders, never other words', () => {
    expect(
      pathsIn('our zod/mini checks: page/, api/<resource>/routes.ts (docs/openapi.json), Node.js'),
    ).toEqual(['page/', 'api/<resource>/routes.ts', 'docs/openapi.json']);
  });
});
