import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commentBlockLimit, longCommentBlocks } from './comment-blocks';
import { projectRoot } from './function-spans';

/** The code a reader of the service reads, and the test support it leans on; generated types are not. */
const scope = ['functions', 'lib', 'tools', 'bin', 'stages', 'client/src', 'client/scripts', 'test/support'];
const generated = 'client/src/generated/';

function sourcesUnder(folder: string): string[] {
  return readdirSync(join(projectRoot, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.[cm]?[jt]sx?$/.test(entry.name))
    .map((entry) => relative(projectRoot, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .filter((file) => !file.startsWith(generated) && !file.split('/').includes('node_modules'));
}

describe('comment blocks', () => {
  const files = scope.flatMap(sourcesUnder).sort();

  it('finds the sources of every folder in scope, and none that is generated', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'functions/routes.ts',
        'bin/local.ts',
        'client/src/client.ts',
        'stages/sandbox.ts',
      ]),
    );
    expect(files.filter((file) => file.startsWith(generated))).toEqual([]);
  });

  it(`keeps every run of comment lines to ${commentBlockLimit} at most: a longer one lives in its decision record`, () => {
    const long = files.flatMap((file) =>
      longCommentBlocks(file, readFileSync(join(projectRoot, file), 'utf8')).map(
        ({ line, lines }) => `${file}:${line}: ${lines} comment lines`,
      ),
    );
    expect(long).toEqual([]);
  });
});

describe('longCommentBlocks', () => {
  const comments = (count: number, line = (index: number) => `// line ${index}`) =>
    Array.from({ length: count }, (_, index) => line(index));

  it('finds a run of line comments one past the limit, and passes one at the limit', () => {
    const source = [...comments(10), 'export const a = 1;', ...comments(9), 'export const b = 2;'].join('\n');
    expect(longCommentBlocks('x.ts', source)).toEqual([{ line: 1, lines: 10 }]);
  });

  it('counts a JSDoc block from its opening line to its closing one, blank lines inside included', () => {
    const source = [
      'const a = 1;',
      '/**',
      ...comments(4, () => ' * why'),
      '',
      ...comments(3, () => ' *'),
      ' */',
    ];
    expect(longCommentBlocks('x.ts', [...source, 'export function f() {}'].join('\n'))).toEqual([
      { line: 2, lines: 10 },
    ]);
  });

  it('counts a run that ends the file, and one of mixed comment kinds, indented', () => {
    const source = ['function f() {', '  /* one */', ...comments(9, (index) => `  // ${index}`), '}'].join(
      '\n',
    );
    expect(longCommentBlocks('x.ts', source)).toEqual([{ line: 2, lines: 10 }]);
    expect(longCommentBlocks('x.ts', ['f();', ...comments(10)].join('\n'))).toEqual([{ line: 2, lines: 10 }]);
  });

  it('ends a run at a blank line between comments, and at a line of code with a trailing comment', () => {
    const source = [...comments(5), '', ...comments(5), 'f(); // trailing', ...comments(5)].join('\n');
    expect(longCommentBlocks('x.ts', source)).toEqual([]);
  });

  it('leaves alone strings and template literals that look like comments', () => {
    const template = ['const page = `', ...comments(12), `\${value}`, ...comments(12), '`;'];
    const strings = comments(12, (index) => `const s${index} = '// not a comment';`);
    expect(longCommentBlocks('x.ts', [...template, ...strings].join('\n'))).toEqual([]);
  });
});
