import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript-api';

/** A function's lines at most: a longer one is a sequence of named steps waiting to be extracted. */
export const functionLimit = 80;

/**
 * The constructor of a CDK construct declares resources one after another and wires them together;
 * its sections are split into methods like any code, but one section may run longer than a step of
 * logic, so its bound is looser.
 */
export const cdkWiringLimit = 120;

export const projectRoot = fileURLToPath(new URL('../../..', import.meta.url));

export interface FunctionSpan {
  /** `file#name`, as `splitByConcurrentWork` names a function. */
  readonly key: string;
  /** Path from the project root, with forward slashes. */
  readonly file: string;
  /** 1-based line of the function's first token (its doc comment not counted). */
  readonly line: number;
  readonly name: string;
  readonly kind: 'function' | 'method' | 'constructor' | 'accessor' | 'arrow';
  /** Lines from the first token to the closing one, blank and comment lines inside included. */
  readonly lines: number;
  /** A constructor of a class extending a class imported from `constructs` or `aws-cdk-lib`. */
  readonly cdkWiring: boolean;
}

/** Every function with a body in the TypeScript files under `folders` (project-relative). */
export function functionSpans(folders: readonly string[]): FunctionSpan[] {
  return folders.flatMap((folder) => typeScriptFiles(join(projectRoot, folder))).flatMap(spansOf);
}

function typeScriptFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

function spansOf(path: string): FunctionSpan[] {
  const file = relative(projectRoot, path).split('\\').join('/');
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const cdkNames = cdkImports(source);
  const spans: FunctionSpan[] = [];
  const visit = (node: ts.Node): void => {
    const kind = kindOf(node);
    if (kind !== undefined && (node as ts.FunctionLikeDeclaration).body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = nameOf(node, source);
      spans.push({
        key: `${file}#${name}`,
        file,
        line: first + 1,
        name,
        kind,
        lines: last - first + 1,
        cdkWiring: ts.isConstructorDeclaration(node) && extendsCdkClass(node.parent, cdkNames),
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return spans;
}

function kindOf(node: ts.Node): FunctionSpan['kind'] | undefined {
  if (ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node)) return 'function';
  if (ts.isMethodDeclaration(node)) return 'method';
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node)) return 'accessor';
  if (ts.isArrowFunction(node)) return 'arrow';
  return undefined;
}

/** Its own name, else the name it is bound to (a variable, a property), else `<anonymous>`. */
function nameOf(node: ts.Node, source: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return `${node.parent.name?.text ?? '<anonymous>'} constructor`;
  const own = (node as ts.FunctionLikeDeclaration).name;
  if (own !== undefined) return own.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return parent.name.getText(source);
  return '<anonymous>';
}

/** The local names a file imports from `constructs` or `aws-cdk-lib` (any of its modules). */
function cdkImports(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const from = statement.moduleSpecifier.text;
    if (from !== 'constructs' && from !== 'aws-cdk-lib' && !from.startsWith('aws-cdk-lib/')) continue;
    const clause = statement.importClause;
    if (clause?.name !== undefined) names.add(clause.name.text);
    const bindings = clause?.namedBindings;
    if (bindings !== undefined && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
    if (bindings !== undefined && ts.isNamedImports(bindings))
      for (const element of bindings.elements) names.add(element.name.text);
  }
  return names;
}

/** `class X extends Construct`, `extends Stack`, `extends kms.Key`: the base's first name is a CDK import. */
function extendsCdkClass(declaration: ts.ClassLikeDeclaration, cdkNames: ReadonlySet<string>): boolean {
  const base = declaration.heritageClauses?.find((clause) => clause.token === ts.SyntaxKind.ExtendsKeyword)
    ?.types[0]?.expression;
  let leftmost = base;
  while (leftmost !== undefined && ts.isPropertyAccessExpression(leftmost)) leftmost = leftmost.expression;
  return leftmost !== undefined && ts.isIdentifier(leftmost) && cdkNames.has(leftmost.text);
}
