import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { projectRoot } from './function-spans';

/** The project modules a file imports (types included), as project-relative paths without extension. */
function projectImports(file: string): string[] {
  const path = join(projectRoot, file);
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, false);
  return source.statements.flatMap((statement) => {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) return [];
    const specifier = statement.moduleSpecifier;
    if (specifier === undefined || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.'))
      return [];
    return [
      relative(projectRoot, resolve(dirname(path), specifier.text))
        .split('\\')
        .join('/'),
    ];
  });
}

function filesUnder(folder: string): string[] {
  return readdirSync(join(projectRoot, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(projectRoot, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

describe('seams between the function areas', () => {
  it('keeps the delivery functions and the authorizer free of functions/http', () => {
    const crossings = [...filesUnder('functions/delivery'), ...filesUnder('functions/authorizer')].flatMap(
      (file) =>
        projectImports(file)
          .filter((module) => module.startsWith('functions/http/'))
          .map((module) => `${file} → ${module}`),
    );
    expect(crossings).toEqual([]);
  });

  it('keeps the generic http handler free of every feature: it maps errors by what they declare', () => {
    const generic = ['functions/http/', 'functions/errors/', 'functions/route-definition'];
    const features = projectImports('functions/http/http-handler.ts').filter(
      (module) => !generic.some((prefix) => module.startsWith(prefix)),
    );
    expect(features).toEqual([]);
  });

  it('keeps observability free of the areas that use it', () => {
    const crossings = filesUnder('functions/observability').flatMap((file) =>
      projectImports(file)
        .filter((module) => !module.startsWith('functions/observability/'))
        .map((module) => `${file} → ${module}`),
    );
    expect(crossings).toEqual([]);
  });

  it('keeps the error vocabulary free of http and of every feature', () => {
    const crossings = filesUnder('functions/errors').flatMap((file) =>
      projectImports(file)
        .filter((module) => !module.startsWith('functions/errors/'))
        .map((module) => `${file} → ${module}`),
    );
    expect(crossings).toEqual([]);
  });
});
