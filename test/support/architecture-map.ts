import { readdirSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * One entry of the folder map in docs/architecture.md#where-each-concern-lives: a line that starts
 * at the margin names top-level folders, a line indented two spaces names what its top-level folder
 * holds, and a line indented further goes on with the description of the entry above it.
 */
export interface MapEntry {
  /** 1-based line of the Markdown file where the entry starts. */
  readonly line: number;
  /** The top-level folder an indented entry sits in (`functions`); '' for a top-level entry. */
  readonly parent: string;
  /** The paths of the first column, relative to `parent`: `bin/`, `routes.ts`, `api/<resource>/`. */
  readonly names: readonly string[];
  /** The paths its description names, relative to one of its names, its parent or the repository. */
  readonly mentions: readonly string[];
}

/** A place the map names that the repository does not hold. */
export interface MapProblem {
  readonly line: number;
  readonly problem: string;
}

/**
 * A path as the map writes one: folders end in `/`, files carry an extension the repository uses,
 * `<name>` stands for any folder. Words with a slash that are neither (`zod/mini`) are not paths.
 */
const pathPattern =
  /(?<![\w./<>-])(?:(?:[\w.-]+|<[\w-]+>)\/)*(?:(?:[\w.-]+|<[\w-]+>)\/|[\w.-]+\.(?:ts|json|md|html|css|hbs))(?![\w/-])/g;

/** The paths a piece of the map names, in order. */
export function pathsIn(text: string): string[] {
  return text.match(pathPattern) ?? [];
}

/** The lines of the first fenced block under `heading`, with the 1-based line number of its first. */
export function mapBlock(markdown: string, heading: string): { lines: string[]; firstLine: number } {
  const lines = markdown.split('\n');
  const headingAt = lines.indexOf(heading);
  const open = lines.findIndex((line, index) => index > headingAt && line.startsWith('```'));
  const close = lines.findIndex((line, index) => index > open && line.startsWith('```'));
  if (headingAt === -1 || open === -1 || close === -1) throw new Error(`no fenced block under "${heading}"`);
  return { lines: lines.slice(open + 1, close), firstLine: open + 2 };
}

/** The entries of the map's lines; the first column ends at the first run of two spaces. */
export function mapEntries(lines: readonly string[], firstLine = 1): MapEntry[] {
  const entries: { line: number; parent: string; names: string[]; mentions: string[] }[] = [];
  let topLevel = '';
  lines.forEach((text, index) => {
    const indent = /^ */.exec(text)?.[0].length ?? 0;
    const last = entries.at(-1);
    if (text.trim() === '') return;
    if (indent > 2 && last !== undefined) {
      last.mentions.push(...pathsIn(text));
      return;
    }
    const [first = '', ...description] = text.trim().split(/ {2,}/);
    const names = pathsIn(first);
    if (indent === 0) topLevel = names[0]?.replace(/\/$/, '') ?? '';
    const parent = indent === 0 ? '' : topLevel;
    entries.push({ line: firstLine + index, parent, names, mentions: pathsIn(description.join('  ')) });
  });
  return entries;
}

/** Whether `path` (from the repository root) is a folder, when `folder`, or else a file. */
function holds(path: string, folder: boolean): boolean {
  try {
    const stats = statSync(join(repoRoot, path));
    return folder ? stats.isDirectory() : stats.isFile();
  } catch {
    return false;
  }
}

/** The folders (or, with `files`, the files) directly in `path`, as paths from the repository root. */
export function childrenOf(path: string, files = false): string[] {
  if (!holds(path, true)) return [];
  return readdirSync(join(repoRoot, path), { withFileTypes: true })
    .filter((entry) => (files ? entry.isFile() : entry.isDirectory()))
    .map((entry) => posix.join(path, entry.name))
    .sort();
}

/**
 * The places a path from the repository root names, when the repository holds them all: a
 * placeholder segment (`<resource>`) stands for every folder there, so `api/<resource>/routes.ts`
 * is true only if every resource has one. Undefined when any is missing, or a placeholder matches
 * no folder.
 */
export function placesOf(path: string): string[] | undefined {
  const folder = path.endsWith('/');
  let places = [''];
  for (const segment of path.split('/').filter((part) => part !== '')) {
    places = places.flatMap((place) =>
      /^<[\w-]+>$/.test(segment) ? childrenOf(place) : [posix.join(place, segment)],
    );
  }
  const real = places.filter((place) => place !== '');
  return real.length > 0 && real.every((place) => holds(place, folder)) ? real : undefined;
}

/** `place` and every folder above it, up to the repository root (not included). */
function withAncestors(place: string): string[] {
  const chain: string[] = [];
  for (let path = place; path !== '.' && path !== ''; path = posix.dirname(path)) chain.push(path);
  return chain;
}

/**
 * What the map names that the repository lacks, and every place it names (each with the folders
 * above it). An entry's names are read from its parent folder; a path its description names, from
 * the first that holds it of the entry's folders, its parent and the repository root.
 */
export function checkMap(entries: readonly MapEntry[]): { problems: MapProblem[]; named: Set<string> } {
  const problems: MapProblem[] = [];
  const named = new Set<string>();
  const take = (places: readonly string[]) => {
    for (const place of places) for (const path of withAncestors(place)) named.add(path);
  };
  for (const { line, parent, names, mentions } of entries) {
    if (names.length === 0) problems.push({ line, problem: 'names no path in its first column' });
    const folders = names.filter((name) => name.endsWith('/')).map((name) => posix.join(parent, name));
    for (const name of names) {
      const places = placesOf(posix.join(parent, name));
      if (places === undefined)
        problems.push({ line, problem: `names ${posix.join(parent, name)}, not there` });
      else take(places);
    }
    const bases = [...folders, ...(parent === '' ? [] : [`${parent}/`]), ''];
    for (const mention of mentions) {
      const places = bases.map((base) => placesOf(posix.join(base, mention))).find(Boolean);
      if (places === undefined)
        problems.push({
          line,
          problem: `mentions ${mention}, in none of ${bases.map((b) => b || './').join(', ')}`,
        });
      else take(places);
    }
  }
  return { problems, named };
}
