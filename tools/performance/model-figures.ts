/**
 * Figures of the performance page's prose, kept with the tables they come from: each is written
 * `<!--fig:name-->value<!--/fig-->` (the comments do not render), and `npm run performance-doc`,
 * which generates the tables, computes every named value and writes it there (docs/performance.md
 * "Cost and capacity models").
 */
export type Figures = ReadonlyMap<string, string>;

const figure = /<!--fig:([\w.]+)-->([\s\S]*?)<!--\/fig-->/g;

/** Every marked figure of `doc` whose value differs from the computed one, or that has none. */
export function staleFigures(doc: string, figures: Figures): string[] {
  const stale: string[] = [];
  for (const [, name = '', value] of doc.matchAll(figure)) {
    const computed = figures.get(name);
    if (computed === undefined) stale.push(`${name}: no such figure is computed`);
    else if (computed !== value) stale.push(`${name}: the page says ${value}, the model ${computed}`);
  }
  return stale;
}

/**
 * The computed figures that no marker of `doc` states: a figure the model computes for a sentence
 * that lost its marker (typed over, or left as a template) would otherwise never be checked.
 */
export function unmarkedFigures(doc: string, figures: Figures): string[] {
  const marked = new Set([...doc.matchAll(figure)].map(([, name = '']) => name));
  return [...figures.keys()].filter((name) => !marked.has(name));
}

/** The doc with every marked figure set to its computed value. */
export function writeFigures(doc: string, figures: Figures): string {
  return doc.replace(figure, (marked, name: string) => {
    const computed = figures.get(name);
    return computed === undefined ? marked : `<!--fig:${name}-->${computed}<!--/fig-->`;
  });
}

/** A count of units, dollars or a rate: what a sentence of the model must not state by hand. */
const handTyped = /\$\d[\d,.]*|\d[\d,.]*\s*(?:\+\s*\d[\d,.]*\s*)?(?:WRU|RRU)\b|\d[\d,.]*\/s\b/g;

/**
 * The figures of units, dollars and rates typed by hand in the model's part of the page (from
 * `heading` on), outside generated blocks, marked figures and table rows, whose values are the
 * inputs the model reads.
 */
export function handTypedFigures(doc: string, heading: string): string[] {
  const start = doc.indexOf(heading);
  if (start === -1) throw new Error(`the doc has no heading "${heading}"`);
  const prose = doc
    .slice(start)
    .replace(/<!-- generated:(\w+) -->[\s\S]*?<!-- \/generated:\1 -->/g, '')
    .replace(figure, '')
    .split('\n')
    .filter((line) => !line.startsWith('|'));
  return prose.flatMap((line) =>
    [...line.matchAll(handTyped)].map((match) => `"${match[0]}" in: ${line.trim()}`),
  );
}

/** `1234.5` as `1,234.5`: at most two decimals, as the tables print units. */
export const figureNumber = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 2 });
