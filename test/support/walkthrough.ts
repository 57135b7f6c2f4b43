import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The README and the guides a reader follows on the local runtime, in the order the walkthrough
 * runs them, as one reader in one terminal would: a guide goes on with what the ones before it set
 * (docs/decisions/guides-that-run.md).
 */
export const Guides = [
  'README.md',
  'docs/getting-started.md',
  'docs/receiving-webhooks.md',
  'docs/sandbox-testing.md',
  'docs/local-runtime.md',
  'docs/deploying.md',
  'docs/admin-cli.md',
] as const;

/** Pages whose shell blocks are the measurements themselves: each is run by the test named. */
export const MeasuringPages: Readonly<Record<string, string>> = {
  'docs/performance.md': 'test/e2e/bench.test.ts',
  'docs/load-test.md': 'test/e2e/soak.test.ts',
};

/** The fence of a block that needs an AWS account and a deployed stage: parsed, never run. */
export const DeployedStageFence = 'sh deployed-stage';

export interface ShellBlock {
  /** `file:line` of the block's opening fence. */
  readonly at: string;
  /** The fence's info string: `sh`, or `sh deployed-stage`. */
  readonly fence: string;
  readonly script: string;
}

/** Every shell block of a Markdown file, in order. */
export function shellBlocks(file: string, markdown: string): ShellBlock[] {
  return [...markdown.matchAll(/^```(sh[^\n]*)\n([\s\S]*?)^```$/gm)].map((match) => ({
    at: `${file}:${markdown.slice(0, match.index).split('\n').length}`,
    fence: (match[1] ?? '').trim(),
    script: match[2] ?? '',
  }));
}

export function shellBlocksOf(repoRoot: string, file: string): ShellBlock[] {
  return shellBlocks(file, readFileSync(join(repoRoot, file), 'utf8'));
}

/** The line each block's output starts after on stdout, so one block's output can be told apart. */
const markerPrefix = '::walkthrough ';

/**
 * The commands that are this run itself (`npm install`, `npm test`), or start what the walkthrough's
 * fixture has already started (`npm start` and `npm run webhook-receiver`, which check the file
 * each writes); every other npm command runs for real at the repository root, with
 * `LOCAL_STATE_DIR` naming the fixture's state folder.
 */
const standIns = `
npm() {
  case "$*" in
    install | test) return 0 ;;
    start) test -f .local/runtime.json ;;
    "run webhook-receiver") test -f .local/webhook-receiver/receiver.json ;;
    *) (cd "$WALKTHROUGH_REPO" && command npm "$@") ;;
  esac
}
`;

/** One bash script of the blocks given, each after its marker line, stopping at the first failure. */
export function walkthroughScript(blocks: readonly ShellBlock[]): string {
  return [
    standIns,
    ...blocks.map((block) => `printf '\\n%s\\n' '${markerPrefix}${block.at}'\n${block.script}`),
  ].join('\n');
}

/** The stdout of each block, keyed by its `file:line`. */
export function outputsByBlock(stdout: string): Map<string, string> {
  const outputs = new Map<string, string>();
  const parts = stdout.split(new RegExp(`^${markerPrefix}(\\S+)$`, 'm'));
  for (let index = 1; index < parts.length; index += 2)
    outputs.set(parts[index] ?? '', parts[index + 1] ?? '');
  return outputs;
}

/** The stdout of every block of one file, in order. */
export function outputOf(outputs: Map<string, string>, file: string): string {
  return [...outputs]
    .filter(([at]) => at.startsWith(`${file}:`))
    .map(([, output]) => output)
    .join('');
}
