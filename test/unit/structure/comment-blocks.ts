import ts from 'typescript-api';

/**
 * Consecutive comment lines at most: a longer explanation belongs in a decision record, linked from a
 * short comment (docs/decisions/records-fit-on-a-screen.md#comments-link-their-record).
 */
export const commentBlockLimit = 9;

/** A run of lines that hold comments and nothing else: its 1-based first line and its length. */
export interface CommentBlock {
  readonly line: number;
  readonly lines: number;
}

/**
 * Every comment of a TypeScript or JavaScript source as `[start, end)` offsets: the comment trivia at
 * both ends of every node and node list, which is all the trivia between tokens.
 */
export function commentRanges(file: string, source: string): [number, number][] {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false);
  const ranges = new Map<number, number>();
  const collect = (position: number) => {
    for (const range of [
      ...(ts.getLeadingCommentRanges(source, position) ?? []),
      ...(ts.getTrailingCommentRanges(source, position) ?? []),
    ])
      ranges.set(range.pos, range.end);
  };
  const visit = (node: ts.Node): void => {
    collect(node.pos);
    collect(node.end);
    ts.forEachChild(node, visit, (nodes) => {
      collect(nodes.pos);
      collect(nodes.end);
      for (const child of nodes) visit(child);
    });
  };
  visit(sourceFile);
  return [...ranges].sort(([a], [b]) => a - b);
}

/**
 * Whether each line of `source` holds a comment and nothing else: with its comments blanked out only
 * whitespace is left, and some comment was on it or runs through it (a blank line inside a block
 * comment counts).
 */
function commentOnlyLines(file: string, source: string): boolean[] {
  const inComment = new Uint8Array(source.length);
  for (const [start, end] of commentRanges(file, source)) inComment.fill(1, start, end);
  const lines: boolean[] = [];
  let offset = 0;
  for (const text of source.split('\n')) {
    let comment = inComment[offset + text.length] === 1;
    let code = false;
    for (let index = 0; index < text.length; index += 1) {
      if (inComment[offset + index] === 1) comment = true;
      else if (text[index]?.trim() !== '') code = true;
    }
    lines.push(comment && !code);
    offset += text.length + 1;
  }
  return lines;
}

/** The runs of more than `limit` consecutive comment-only lines of one source file. */
export function longCommentBlocks(file: string, source: string, limit = commentBlockLimit): CommentBlock[] {
  const blocks: CommentBlock[] = [];
  let first: number | undefined;
  [...commentOnlyLines(file, source), false].forEach((isComment, index) => {
    if (isComment) first ??= index;
    else if (first !== undefined) {
      if (index - first > limit) blocks.push({ line: first + 1, lines: index - first });
      first = undefined;
    }
  });
  return blocks;
}
