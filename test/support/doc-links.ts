import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface DocProblem {
  /** 1-based line of the Markdown file. */
  readonly line: number;
  readonly problem: string;
}

/** The Markdown a reader of the repository is sent to: README.md and every `.md` under docs/, sorted. */
export function repositoryDocs(): string[] {
  const underDocs = readdirSync(join(repoRoot, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.md'))
    .map((path) => posix.join('docs', path.split('\\').join('/')));
  return ['README.md', ...underDocs.sort()];
}

/** Folders that hold what the service writes at run time (`.local/`, `.cache/`…): git-ignored, never committed. */
const ignoredRoots = new Set(
  readFileSync(join(repoRoot, '.gitignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#') && !/[*?[!]/.test(line))
    .map((line) => line.replace(/^\/+|\/+$/g, '')),
);

const topLevelEntries = new Set(readdirSync(repoRoot));

/** Text that names a place beyond the repository: the engineers' folder, or a parent of the checkout. */
const outsideMentions = [/\bshared\//, /\.\.\//];

/** A relative path and nothing else: path characters only, at least one slash, not rooted. */
const pathLike = /^(?!\/)(?:[\w.-]+\/)+[\w.-]*$/;

/**
 * Whether an inline-code span reads as a file of this repository: a relative path under one of its
 * top-level entries (`bin/admin.ts`, `tools/local/`), or any relative path ending in a file name with
 * an extension (`doc/x.md`, a mistyped folder). MIME types and index names (`application/json`,
 * `index/GSI1`) are neither.
 */
function isRepoPath(code: string): boolean {
  if (!pathLike.test(code)) return false;
  const [first = ''] = code.split('/');
  return topLevelEntries.has(first) || /\/[\w.-]*\.[A-Za-z][A-Za-z0-9]*$/.test(code);
}

/**
 * What in one Markdown file sends a reader outside the repository or to nothing: a link to another
 * site, a link, anchor or inline-code path naming a file or heading the repository lacks, or any
 * mention of `shared/` or `../` (code blocks included). Host names inside code are examples, not
 * links. `file` is the document's path from the repository root; links resolve from its folder,
 * inline-code paths from the root.
 */
export function docProblems(file: string, markdown: string): DocProblem[] {
  const problems: DocProblem[] = [];
  const lines = markdown.split('\n');
  const prose = proseLines(lines);
  lines.forEach((text, index) => {
    for (const pattern of outsideMentions) {
      const found = pattern.exec(text);
      if (found !== null)
        problems.push({ line: index + 1, problem: `mentions "${found[0]}" beyond the repository` });
    }
  });
  prose.forEach((text, index) => {
    const line = index + 1;
    const withoutCode = text.replace(/(`+)(.+?)\1/g, (span, _ticks: string, code: string) => {
      const path = code.trim();
      if (
        isRepoPath(path) &&
        !ignoredRoots.has(path.split('/')[0] ?? '') &&
        !existsSync(join(repoRoot, path))
      ) {
        problems.push({ line, problem: `names ${path}, which is not in the repository` });
      }
      return ' '.repeat(span.length);
    });
    for (const target of linkTargets(withoutCode)) {
      const problem = linkProblem(file, markdown, target);
      if (problem !== undefined) problems.push({ line, problem });
    }
  });
  return problems;
}

/**
 * The lines as a reader sees prose: fenced code blocks and HTML comments blanked out (line numbers
 * kept), so neither an example host nor a maintainers' note counts as a link.
 */
function proseLines(lines: readonly string[]): string[] {
  let fence: string | undefined;
  let inComment = false;
  return lines.map((line) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      return '';
    }
    if (marker !== undefined) {
      fence = marker;
      return '';
    }
    let visible = '';
    let rest = line;
    while (rest !== '') {
      if (inComment) {
        const end = rest.indexOf('-->');
        if (end === -1) return visible;
        inComment = false;
        rest = rest.slice(end + 3);
      } else {
        const start = rest.indexOf('<!--');
        if (start === -1) return visible + rest;
        visible += rest.slice(0, start);
        inComment = true;
        rest = rest.slice(start + 4);
      }
    }
    return visible;
  });
}

/** Every link target of one prose line: inline links and images, definitions, autolinks, bare URLs, HTML. */
function linkTargets(text: string): string[] {
  const targets: string[] = [];
  const take = (pattern: RegExp) => (source: string) =>
    source.replace(pattern, (match, target: string) => {
      targets.push(target);
      return ' '.repeat(match.length);
    });
  const steps = [
    take(/!?\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g),
    take(/^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/g),
    take(/<([a-z][a-z\d+.-]*:[^>\s]*)>/gi),
    take(/\b(?:href|src)\s*=\s*["']([^"']*)["']/gi),
    take(/((?:\bhttps?:\/\/|\bwww\.)[^\s<>)\]]+)/gi),
  ];
  steps.reduce((rest, step) => step(rest), text);
  return targets;
}

/** Why one link target fails, or undefined when it leads to a file (and heading) of the repository. */
function linkProblem(file: string, markdown: string, target: string): string | undefined {
  if (/^[a-z][a-z\d+.-]*:/i.test(target) || target.startsWith('//') || target.startsWith('www.')) {
    return `links outside the repository: ${target}`;
  }
  const hashAt = target.indexOf('#');
  const pathPart = decodeURIComponent(hashAt === -1 ? target : target.slice(0, hashAt));
  const anchor = hashAt === -1 ? undefined : decodeURIComponent(target.slice(hashAt + 1));
  const resolved =
    pathPart === ''
      ? file
      : pathPart.startsWith('/')
        ? posix.normalize(pathPart.slice(1))
        : posix.normalize(posix.join(posix.dirname(file), pathPart));
  if (resolved.startsWith('..')) return `links outside the repository: ${target}`;
  if (!existsSync(join(repoRoot, resolved))) return `links to ${resolved}, which is not in the repository`;
  if (anchor !== undefined && anchor !== '' && resolved.endsWith('.md')) {
    const slugs = headingSlugs(resolved === file ? markdown : readFileSync(join(repoRoot, resolved), 'utf8'));
    if (!slugs.has(anchor)) return `links to #${anchor}, which is no heading of ${resolved}`;
  }
  return undefined;
}

/** The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces to hyphens. */
export function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  const lines = markdown.split('\n');
  proseLines(lines).forEach((line) => {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) return;
    const base = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count === 0 ? base : `${base}-${count}`);
  });
  return slugs;
}
