import { button, el } from './dom';
import { displayedTime } from './time-format';

/** A `<time>` in the viewer's zone, with the UTC time on hover. */
export function timeElement(iso: string): HTMLTimeElement {
  const { text, title } = displayedTime(iso);
  return el('time', { datetime: iso, title }, text);
}

/** A status word with a class per value for its colour; the word itself carries the meaning. */
export function statusBadge(status: string): HTMLSpanElement {
  return el('span', { class: `badge badge-${status.replace(/[^a-z_]/g, '')}` }, status);
}

/** A description list from label/value pairs; an undefined value leaves its pair out. */
export function facts(pairs: readonly (readonly [string, Node | string | undefined])[]): HTMLDListElement {
  const list = el('dl', { class: 'facts' });
  for (const [term, value] of pairs) {
    if (value === undefined) continue;
    list.append(el('div', {}, el('dt', {}, term), el('dd', {}, value)));
  }
  return list;
}

/** A table with a caption, header cells and one row per item. */
export function table<T>(
  caption: string,
  columns: readonly {
    readonly heading: string;
    readonly cell: (item: T) => Node | string;
    readonly numeric?: true;
  }[],
  items: readonly T[],
): HTMLTableElement {
  const head = el(
    'tr',
    {},
    ...columns.map((column) =>
      el('th', { scope: 'col', class: column.numeric ? 'num' : undefined }, column.heading),
    ),
  );
  const body = el('tbody');
  for (const item of items) {
    body.append(
      el(
        'tr',
        {},
        ...columns.map((column) =>
          el('td', { class: column.numeric ? 'num' : undefined }, column.cell(item)),
        ),
      ),
    );
  }
  return el('table', {}, el('caption', {}, caption), el('thead', {}, head), body);
}

/** A paragraph that says a list is empty and, where it helps, what makes it fill. */
export function emptyState(text: string): HTMLParagraphElement {
  return el('p', { class: 'empty' }, text);
}

/** A button that copies `text` and says so. */
export function copyButton(
  label: string,
  text: () => string,
  announce: (message: string) => void,
): HTMLButtonElement {
  return button(
    label,
    () => {
      navigator.clipboard.writeText(text()).then(
        () => announce('Copied.'),
        () => announce('Copying was not allowed here; select the text and copy it instead.'),
      );
    },
    { class: 'secondary' },
  );
}

/** JSON shown as text, pretty-printed, in a focusable block so it scrolls by keyboard. */
export function jsonBlock(label: string, value: unknown): HTMLPreElement {
  return el('pre', { class: 'json', tabindex: '0', 'aria-label': label }, JSON.stringify(value, null, 2));
}

/** The endpoint's name as the portal shows it: its name, else its URL. */
export function endpointTitle(endpoint: { readonly name?: string; readonly url: string }): string {
  return endpoint.name !== undefined && endpoint.name !== '' ? endpoint.name : endpoint.url;
}
