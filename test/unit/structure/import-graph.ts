import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript-api';
import { projectRoot } from './function-spans';

/** Every module specifier of a file's import and export declarations (types included). */
function moduleSpecifiers(file: string): string[] {
  const path = join(projectRoot, file);
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, false);
  return source.statements.flatMap((statement) => {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) return [];
    const specifier = statement.moduleSpecifier;
    return specifier !== undefined && ts.isStringLiteral(specifier) ? [specifier.text] : [];
  });
}

/** The project modules a file imports (types included), as project-relative paths without extension. */
export function projectImports(file: string): string[] {
  const folder = dirname(join(projectRoot, file));
  return moduleSpecifiers(file)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => relative(projectRoot, resolve(folder, specifier)).split('\\').join('/'));
}

/** The packages a file imports (types included), as written: `@aws-sdk/lib-dynamodb`, `node:crypto`. */
export function packageImports(file: string): string[] {
  return moduleSpecifiers(file).filter((specifier) => !specifier.startsWith('.'));
}

export function filesUnder(folder: string): string[] {
  return readdirSync(join(projectRoot, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(projectRoot, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

/** The project file an import names: `x` as `x.ts`, or `x/index.ts`; undefined for anything else. */
function fileOf(module: string): string | undefined {
  for (const candidate of [`${module}.ts`, `${module}/index.ts`]) {
    if (existsSync(join(projectRoot, candidate))) return candidate;
  }
  return undefined;
}

/**
 * The import circles among the TypeScript files under `folders`, type-only imports included: each
 * strongly connected set of two or more files, or a file importing itself (Tarjan's algorithm).
 */
export function importCircles(folders: readonly string[]): string[][] {
  const files = folders.flatMap(filesUnder).filter((file) => !file.endsWith('.d.ts'));
  const edges = new Map(
    files.map((file) => [file, projectImports(file).flatMap((module) => fileOf(module) ?? [])]),
  );
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const connect = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(file, Math.min(low.get(file) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) as number, index.get(next) as number));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (edges.get(file) ?? []).includes(file)) circles.push(component.sort());
  };
  for (const file of files) if (!index.has(file)) connect(file);
  return circles;
}
