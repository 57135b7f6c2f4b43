/**
 * Builds the portal's nodes. Every text goes in through `textContent`: the page's policy enforces
 * Trusted Types with no policy at all, so markup from a string would throw, and an endpoint name or
 * an event payload is only ever text (docs/decisions/merchant-portal-page.md).
 */

type Attributes = Readonly<Record<string, string | boolean | undefined>>;
type Child = Node | string | undefined | false;

/** An element with its attributes (`true`: present, `false`/undefined: absent) and children. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === true) element.setAttribute(name, '');
    else if (typeof value === 'string') element.setAttribute(name, value);
  }
  append(element, ...children);
  return element;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** Replaces every child of `parent`. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

/** A real button that runs `action` on click (and so on Enter and Space). */
export function button(
  label: string,
  action: (event: MouseEvent) => void,
  attributes: Attributes = {},
): HTMLButtonElement {
  const element = el('button', { type: 'button', ...attributes }, label);
  element.addEventListener('click', action);
  return element;
}

export function byId<T extends HTMLElement>(id: string, type: { new (): T; prototype: T }): T {
  const element = document.getElementById(id);
  if (!(element instanceof type)) throw new Error(`The portal page has no #${id}`);
  return element;
}
