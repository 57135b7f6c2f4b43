import { button, el, replaceChildren } from './dom';

/**
 * The portal's one modal `<dialog>`: it opens with focus on its first control and, when it closes,
 * gives focus back to what opened it.
 */

let dialogCount = 0;

export interface OpenDialog {
  readonly dialog: HTMLDialogElement;
  /** Where the dialog's content goes, below its heading. */
  readonly body: HTMLDivElement;
  close(): void;
}

export function openDialog(heading: string, onClose: () => void = () => undefined): OpenDialog {
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
  dialogCount += 1;
  const headingId = `dialog-heading-${dialogCount}`;
  const body = el('div', { class: 'dialog-body' });
  const dialog = el('dialog', { 'aria-labelledby': headingId }, el('h2', { id: headingId }, heading), body);
  dialog.addEventListener('close', () => {
    dialog.remove();
    // The browser gives focus back when the dialog closes, and this event comes a task later: a
    // keyboard user may have moved on by then (Escape, then Tab at once), and keeps that focus.
    // Focus is only placed when it is nowhere: what opened the dialog, or the view's heading when
    // that was drawn anew meanwhile.
    if (document.activeElement === null || document.activeElement === document.body) {
      const back = opener?.isConnected ? opener : document.querySelector<HTMLElement>('#view h1');
      back?.focus();
    }
    onClose();
  });
  document.body.append(dialog);
  const close = () => dialog.close();
  queueMicrotask(() => {
    dialog.showModal();
    const first = body.querySelector<HTMLElement>('input, select, textarea, button, pre[tabindex]');
    first?.focus();
  });
  return { dialog, body, close };
}

/** Asks before something that cannot be undone; resolves true on the confirming button. */
export function confirmAction(heading: string, text: string, confirmLabel: string): Promise<boolean> {
  return new Promise((resolve) => {
    let confirmed = false;
    const { body, close } = openDialog(heading, () => resolve(confirmed));
    replaceChildren(
      body,
      el('p', {}, text),
      el(
        'div',
        { class: 'actions' },
        button('Cancel', close, { class: 'secondary' }),
        button(
          confirmLabel,
          () => {
            confirmed = true;
            close();
          },
          { class: 'danger' },
        ),
      ),
    );
  });
}

/**
 * A form in a dialog: a submit runs `submit`, which closes the dialog unless it throws; what it
 * resolves to runs once the dialog has closed and given focus back (e.g. opening the next dialog).
 */
export function formDialog(
  heading: string,
  fields: readonly Node[],
  submitLabel: string,
  submit: (form: HTMLFormElement) => Promise<(() => void) | undefined>,
): OpenDialog {
  let next: (() => void) | undefined;
  const open = openDialog(heading, () => next?.());
  const error = el('p', { class: 'form-error', role: 'alert' });
  const submitButton = el('button', { type: 'submit' }, submitLabel);
  const form = el(
    'form',
    { novalidate: true },
    ...fields,
    error,
    el('div', { class: 'actions' }, button('Cancel', open.close, { class: 'secondary' }), submitButton),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submitButton.disabled = true;
    error.textContent = '';
    submit(form).then(
      (after) => {
        next = after;
        open.close();
      },
      (failure: unknown) => {
        submitButton.disabled = false;
        error.textContent = failure instanceof Error ? failure.message : 'That did not work; try again.';
      },
    );
  });
  open.body.append(form);
  return open;
}
