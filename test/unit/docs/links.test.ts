import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type DocProblem, docProblems, headingSlugs, repositoryDocs } from '../../support/doc-links';

const docs = repositoryDocs();
const read = (file: string) => readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8');
const described = (problems: readonly DocProblem[]) =>
  problems.map(({ line, problem }) => `${line}: ${problem}`);

describe('README.md and docs/**/*.md', () => {
  it('are found: the README and every guide under docs/', () => {
    expect(docs).toEqual(
      expect.arrayContaining([
        'README.md',
        'docs/architecture.md',
        'docs/decisions/README.md',
        'docs/decisions/idempotency.md',
        'docs/receiving-webhooks.md',
        'docs/sandbox-testing.md',
      ]),
    );
  });

  it.each(docs)('%s sends its reader only to files and headings of the repository', (file) => {
    expect(described(docProblems(file, read(file)))).toEqual([]);
  });
});

describe('docs/decisions/', () => {
  const records = readdirSync(new URL('../../../docs/decisions/', import.meta.url))
    .filter((name) => name.endsWith('.md') && name !== 'README.md')
    .sort();
  const indexed = new Set(
    [...read('docs/decisions/README.md').matchAll(/\]\(([\w.-]+\.md)\)/g)].map(([, target]) => target),
  );

  it('holds the decision records, one file each', () => {
    expect(records.length).toBeGreaterThan(0);
  });

  it.each(records)('%s is listed in the index, docs/decisions/README.md', (record) => {
    expect(indexed.has(record)).toBe(true);
  });

  it.each(records)('%s has the sections Context, Decision and Consequences, in that order', (record) => {
    const sections = read(`docs/decisions/${record}`)
      .split('\n')
      .filter((line) => line.startsWith('## '));
    expect(sections).toEqual(['## Context', '## Decision', '## Consequences']);
  });
});

describe('docProblems', () => {
  const problemsOf = (markdown: string, file = 'README.md') => described(docProblems(file, markdown));

  it('accepts links, anchors and inline-code paths that name what the repository holds', () => {
    const markdown = [
      '# Guide',
      'See [the design](docs/architecture.md), [its idempotency part](docs/architecture.md#conventions-for-every-endpoint),',
      '[this guide](#guide), `bin/admin.ts`, `tools/local/` and `docs/receiving-webhooks/verify-webhook.ts`.',
    ].join('\n');
    expect(problemsOf(markdown)).toEqual([]);
  });

  it('resolves a link from the folder of its document', () => {
    expect(
      problemsOf('The [reference](api.html), [vectors](receiving-webhooks.md#test-vectors).', 'docs/x.md'),
    ).toEqual([]);
    expect(problemsOf('The [reference](docs/api.html).', 'docs/x.md')).toEqual([
      '1: links to docs/docs/api.html, which is not in the repository',
    ]);
  });

  it('finds a link, anchor or inline-code path to something the repository lacks', () => {
    const markdown = [
      'Read [the design](docs/design.md) and [nothing](#nowhere).',
      'Run `bin/missing.ts`, or open `doc/architecture.md`.',
      'Then [its tests](docs/architecture.md#no-such-heading).',
    ].join('\n');
    expect(problemsOf(markdown)).toEqual([
      '1: links to docs/design.md, which is not in the repository',
      '1: links to #nowhere, which is no heading of README.md',
      '2: names bin/missing.ts, which is not in the repository',
      '2: names doc/architecture.md, which is not in the repository',
      '3: links to #no-such-heading, which is no heading of docs/architecture.md',
    ]);
  });

  it('finds every form of link to another site', () => {
    const markdown = [
      'The [specification](https://example.com/spec) and ![a badge](http://example.com/badge.svg).',
      'Also <https://example.com/autolink>, https://example.com/bare and www.example.com.',
      '[defined]: https://example.com/definition',
      '<a href="https://example.com/html">html</a>',
    ].join('\n');
    expect(problemsOf(markdown)).toEqual([
      '1: links outside the repository: https://example.com/spec',
      '1: links outside the repository: http://example.com/badge.svg',
      '2: links outside the repository: https://example.com/autolink',
      '2: links outside the repository: https://example.com/bare',
      '2: links outside the repository: www.example.com.',
      '3: links outside the repository: https://example.com/definition',
      '4: links outside the repository: https://example.com/html',
    ]);
  });

  it('finds any mention of shared/ or ../, in prose and in code blocks alike', () => {
    const markdown = [
      'The interface is in `shared/spec/merchant-payments-spec.md`.',
      '```sh',
      'cd ../main && npm test',
      '```',
    ].join('\n');
    expect(problemsOf(markdown)).toEqual([
      '1: mentions "shared/" beyond the repository',
      '3: mentions "../" beyond the repository',
      '1: names shared/spec/merchant-payments-spec.md, which is not in the repository',
    ]);
  });

  it('leaves alone example hosts in code, routes, MIME types and files the service writes at run time', () => {
    const markdown = [
      '```sh',
      `curl -d '{"url":"https://hooks.example.com/payments"}' "$BASE/pay/payments"`,
      '```',
      'It answers `application/json` at `/pay/payments`, listens on `https://localhost:4443` and writes',
      '`.local/runtime.json` and `.cache/dynamodb-local/`. <!-- [a note](docs/gone.md) -->',
    ].join('\n');
    expect(problemsOf(markdown)).toEqual([]);
  });
});

describe('headingSlugs', () => {
  it('gives the anchors GitHub gives, numbering repeated headings', () => {
    const markdown =
      '# Verification code (TypeScript, Node.js)\n## `npm start`\n## Notes\n## Notes\n```\n# not a heading\n```';
    expect([...headingSlugs(markdown)]).toEqual([
      'verification-code-typescript-nodejs',
      'npm-start',
      'notes',
      'notes-1',
    ]);
  });
});
