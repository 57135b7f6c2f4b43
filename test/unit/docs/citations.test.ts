import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headingSlugs } from '../../support/doc-links';
import { commentRanges } from '../structure/comment-blocks';

const repoRoot = join(import.meta.dirname, '..', '..', '..');

/** Where code and its tests live; each must cite only the repository's own documents. */
const codeRoots = ['functions', 'lib', 'tools', 'bin', 'test', 'client/src'] as const;

/** Files whose text a reader of the code reads: sources, and the page templates beside them. */
const textFile = /\.(?:[cm]?[jt]sx?|html|css|hbs)$/;

/** Every such file under the code roots, as a path from the repository root, sorted. */
function codeFiles(): string[] {
  return codeRoots
    .flatMap((root) =>
      readdirSync(join(repoRoot, root), { recursive: true, encoding: 'utf8' })
        .map((path) => posix.join(root, path.split('\\').join('/')))
        .filter((path) => textFile.test(path) && !path.split('/').includes('node_modules')),
    )
    .sort();
}

/** Joined at run time, so this file, which has to name what it looks for, does not match it. */
const joined = (...parts: string[]) => parts.join('');
const design = joined('DES', 'IGN');
const spec = joined('sp', 'ec');

/**
 * What cites a document the repository does not hold: the design document by name or section, and
 * the interface description by its short name, in its usual spellings. A variable of that name
 * (`readSettings(env, rules)` written with it) is code, not a citation, and matches none of these.
 */
const outsideCitations: readonly RegExp[] = [
  new RegExp(`\\b${design}\\b`),
  new RegExp(`\\bthe ${spec}\\b`, 'i'),
  new RegExp(`\\b${spec}['’]s\\b`, 'i'),
  new RegExp(`\\b${spec},? ["“]`, 'i'),
  new RegExp(`\\s\\(${spec}\\)`, 'i'),
  new RegExp(`^\\s*(?:/\\*\\*?|\\*|//)\\s*${spec}\\b`, 'im'),
];

interface Finding {
  /** 1-based line of the file. */
  readonly line: number;
  readonly problem: string;
}

/** Each line of `text` that cites a document outside the repository, with the first citation on it. */
function outsideCitationsIn(text: string): Finding[] {
  return text.split('\n').flatMap((line, index) => {
    const found = outsideCitations.map((pattern) => pattern.exec(line)).find((match) => match !== null);
    return found == null ? [] : [{ line: index + 1, problem: `cites "${found[0].trim()}"` }];
  });
}

/** The comments of a TypeScript or JavaScript source, each with where it starts. */
function commentsOf(file: string, source: string): { start: number; text: string }[] {
  return commentRanges(file, source).map(([start, end]) => ({ start, text: source.slice(start, end) }));
}

/** A repository document named in prose: `docs/…/name.md`, with the heading's anchor when it has one. */
const documentReference = /\bdocs\/[\w./-]*?\.md(?:#[\w-]+)?/g;

/**
 * Each reference in a comment of `source` to a document under `docs/` that the repository lacks, or
 * to a heading that document does not have. References in strings and code are not the reader's
 * pointers (a test may name a missing file on purpose), so only comments are read.
 */
function documentReferenceProblems(file: string, source: string): Finding[] {
  // Parsing is the slow part: a file that names no document under docs/ has nothing to check.
  if (!/\bdocs\/[\w./-]*\.md/.test(source)) return [];
  const lineOf = (position: number) => source.slice(0, position).split('\n').length;
  return commentsOf(file, source).flatMap(({ start, text }) =>
    [...text.matchAll(documentReference)].flatMap((match) => {
      const [path = '', anchor] = match[0].split('#');
      const line = lineOf(start + (match.index ?? 0));
      if (!existsSync(join(repoRoot, path))) {
        return [{ line, problem: `names ${path}, which is not in the repository` }];
      }
      if (anchor !== undefined && !headingSlugs(readFileSync(join(repoRoot, path), 'utf8')).has(anchor)) {
        return [{ line, problem: `links to #${anchor}, which is no heading of ${path}` }];
      }
      return [];
    }),
  );
}

const isScript = (file: string) => /\.[cm]?[jt]sx?$/.test(file);
const described = (file: string, findings: readonly Finding[]) =>
  findings.map(({ line, problem }) => `${file}:${line}: ${problem}`);

describe('code under functions/, lib/, bin/ and test/', () => {
  const files = codeFiles();
  const read = (file: string) => readFileSync(join(repoRoot, file), 'utf8');

  it('is found, this file among it', () => {
    expect(files).toEqual(
      expect.arrayContaining(['functions/routes.ts', 'test/unit/docs/citations.test.ts']),
    );
  });

  it('cites no document outside the repository: not the design document, not the interface description', () => {
    expect(files.flatMap((file) => described(file, outsideCitationsIn(read(file))))).toEqual([]);
  });

  it('holds neither string a plain search for citations looks for, in any file, words that begin with it included', () => {
    // `grep -rn "<design> §\|the <spec>" functions lib bin test`, as the codebase pass checks it:
    // a substring search over every file, so "the <spec>ified" counts too.
    const strings = [`${design} §`, `the ${spec}`];
    const everyFile = codeRoots.flatMap((root) =>
      readdirSync(join(repoRoot, root), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && !entry.parentPath.split('/').includes('node_modules'))
        .map((entry) => join(entry.parentPath, entry.name)),
    );
    expect(everyFile.length).toBeGreaterThan(files.length);
    const found = everyFile.flatMap((path) => {
      const text = readFileSync(path, 'utf8');
      return strings
        .filter((string) => text.includes(string))
        .map((string) => `${relative(repoRoot, path)}: ${string}`);
    });
    expect(found).toEqual([]);
  });

  it('sends its reader, in comments, only to documents and headings the repository has', () => {
    const scripts = files.filter(isScript);
    expect(scripts.flatMap((file) => described(file, documentReferenceProblems(file, read(file))))).toEqual(
      [],
    );
  });
});

describe('outsideCitationsIn', () => {
  it('finds every form of citation of the design document and the interface description', () => {
    const text = [
      `/** Keys are kept 24 h (${design} §3). */`,
      `// as ${joined('the ', spec)} says`,
      `/** ${joined('The ', spec)}'s email rule. */`,
      ` * Headers beyond the ${spec}’s own`,
      `/** ${joined('Sp', 'ec')} "Refund": exactly its fields. */`,
      `/** A product (${spec}, "Catalog product"). */`,
      ` * outside this code base, with openssl (${spec}) and`,
      `/** ${joined('Sp', 'ec')}: a single refund. */`,
    ].join('\n');
    expect(outsideCitationsIn(text).map(({ line }) => line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('leaves alone code that names a variable spec, and words that only begin with it', () => {
    const text = [
      'const spec = { A: flag() };',
      'expect(readSettings({ A: "7" }, spec)).toEqual({ A: 7 });',
      'for (const [variable, rule] of Object.entries(spec)) shape[variable] = rule.schema;',
      "{ id: '1', spec: 'v1=ab', standard: 'v1,cd' }",
      `/** A specification of the queue, and the ${spec}ified region. */`,
      '// The design of the router, in docs/architecture.md#the-delivery-pipeline.',
    ].join('\n');
    expect(outsideCitationsIn(text)).toEqual([]);
  });
});

describe('documentReferenceProblems', () => {
  const problemsOf = (source: string) =>
    documentReferenceProblems('x.ts', source).map(({ line, problem }) => `${line}: ${problem}`);

  it('accepts references to documents and headings the repository has', () => {
    const source = [
      '/** The request path (docs/architecture.md#the-request-path); see docs/decisions/README.md. */',
      '// One record: `docs/decisions/idempotency.md`.',
      'export const x = 1; // trailing: docs/operations.md',
    ].join('\n');
    expect(problemsOf(source)).toEqual([]);
  });

  it('finds a reference, in any kind of comment, to a missing document or heading', () => {
    const source = [
      '/**',
      ' * The old page (docs/decisions.md#idempotency) and a missing heading',
      ' * (docs/architecture.md#no-such-heading).',
      ' */',
      'export function f() {',
      '  return 1; // docs/nowhere.md',
      '}',
    ].join('\n');
    expect(problemsOf(source)).toEqual([
      '2: names docs/decisions.md, which is not in the repository',
      '3: links to #no-such-heading, which is no heading of docs/architecture.md',
      '6: names docs/nowhere.md, which is not in the repository',
    ]);
  });

  it('reads comments only: a string naming a missing document is code, not a pointer', () => {
    const source = "export const example = 'Open `docs/design.md` and [x](docs/nowhere.md#a).';";
    expect(problemsOf(source)).toEqual([]);
  });
});
