import {
  EventTypes,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
  type WebhookRecovery,
} from './api-types';
import { confirmAction, formDialog, openDialog } from './dialogs';
import { button, el, replaceChildren } from './dom';
import type { PortalContext } from './portal-context';
import { copyButton, endpointTitle } from './widgets';

/** The controls of a `manage` session that change an endpoint; a `read` session never builds them. */

const endpointPath = (context: PortalContext, endpointId: string) =>
  `/merchants/${encodeURIComponent(context.session.merchantId)}/webhook-endpoints/${encodeURIComponent(endpointId)}`;

let fieldCount = 0;

function field(label: string, input: HTMLInputElement | HTMLSelectElement): HTMLDivElement {
  fieldCount += 1;
  input.id = `field-${fieldCount}`;
  return el('div', { class: 'field' }, el('label', { for: input.id }, label), input);
}

function eventTypeChoices(selected: readonly string[]): HTMLFieldSetElement {
  return el(
    'fieldset',
    { class: 'choices' },
    el('legend', {}, 'Event types'),
    ...EventTypes.map((type) =>
      el(
        'label',
        {},
        el('input', { type: 'checkbox', name: 'eventTypes', value: type, checked: selected.includes(type) }),
        ` ${type}`,
      ),
    ),
  );
}

/** Shows a new signing secret once: it is never shown again. */
export function showSecret(context: PortalContext, secret: string): void {
  const { body, close } = openDialog('Signing secret');
  replaceChildren(
    body,
    el(
      'p',
      {},
      'Copy this secret now: it is shown only once. Your endpoint checks each delivery’s signature with it.',
    ),
    el('pre', { class: 'secret', tabindex: '0', 'aria-label': 'Signing secret' }, secret),
    el(
      'div',
      { class: 'actions' },
      copyButton('Copy secret', () => secret, context.announce),
      button('Done', close),
    ),
  );
}

/** Creates (no endpoint given) or edits an endpoint. */
export function openEndpointForm(
  context: PortalContext,
  endpoint: WebhookEndpoint | undefined,
  done: () => void,
): void {
  const name = el('input', { type: 'text', name: 'name', maxlength: '100', value: endpoint?.name ?? '' });
  const url = el('input', {
    type: 'url',
    name: 'url',
    required: true,
    spellcheck: 'false',
    value: endpoint?.url ?? '',
  });
  const fields = [
    field('Name (optional)', name),
    field('URL (https)', url),
    eventTypeChoices(endpoint?.eventTypes ?? []),
  ];
  formDialog(
    endpoint === undefined ? 'Add an endpoint' : `Edit ${endpointTitle(endpoint)}`,
    fields,
    endpoint === undefined ? 'Add endpoint' : 'Save',
    async (form) => {
      const eventTypes = [...form.querySelectorAll<HTMLInputElement>('input[name=eventTypes]:checked')].map(
        (box) => box.value,
      );
      const body = {
        url: url.value.trim(),
        eventTypes,
        ...(name.value.trim() === '' ? {} : { name: name.value.trim() }),
      };
      if (endpoint === undefined) {
        const created = await context.api.send<WebhookEndpointWithSecret>(
          'POST',
          `/merchants/${encodeURIComponent(context.session.merchantId)}/webhook-endpoints`,
          body,
        );
        context.announce(`Added ${endpointTitle(created)}.`);
        done();
        return () => showSecret(context, created.signingSecret);
      }
      await context.api.send('PATCH', endpointPath(context, endpoint.webhookEndpointId), body);
      context.announce('Saved.');
      done();
      return undefined;
    },
  );
}

function sendTest(context: PortalContext, endpoint: WebhookEndpoint): void {
  const type = el(
    'select',
    { name: 'eventType' },
    ...EventTypes.map((value) => el('option', { value }, value)),
  );
  formDialog(
    'Send a test delivery',
    [el('p', {}, 'Sends sample data, marked as a test, to this endpoint.'), field('Event type', type)],
    'Send test',
    async () => {
      const delivery = await context.api.send<WebhookDelivery>(
        'POST',
        `${endpointPath(context, endpoint.webhookEndpointId)}/test`,
        { eventType: type.value },
      );
      context.announce(
        `Test delivery ${delivery.webhookDeliveryId} sent; its status shows in the deliveries list.`,
      );
      return undefined;
    },
  );
}

/**
 * Polls a recovery until it is no longer running, showing its counts as they grow. Closing it
 * draws the view again once the recovery redelivered anything, so its deliveries are listed.
 */
function watchRecovery(
  context: PortalContext,
  endpoint: WebhookEndpoint,
  recovery: WebhookRecovery,
  done: () => void,
): void {
  const progress = el('p', { role: 'status', 'aria-live': 'polite' });
  let latest = recovery;
  const { body, close } = openDialog('Recovery', () => {
    clearTimeout(timer);
    if (latest.redelivered > 0) done();
  });
  const show = (current: WebhookRecovery) => {
    latest = current;
    progress.textContent =
      `${current.status === 'running' ? 'Running' : current.status === 'completed' ? 'Completed' : 'Canceled'}: ` +
      `${current.exhaustedFound} failed deliveries found, ${current.redelivered} redelivered, ${current.skipped} skipped.`;
  };
  replaceChildren(body, progress, el('div', { class: 'actions' }, button('Close', close)));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const poll = (current: WebhookRecovery) => {
    show(current);
    if (current.status !== 'running' || !body.isConnected) return;
    timer = setTimeout(() => {
      context.api
        .get<WebhookRecovery>(
          `${endpointPath(context, endpoint.webhookEndpointId)}/recoveries/${encodeURIComponent(current.recoveryId)}`,
        )
        .then(poll, (error: unknown) => {
          close();
          context.alertError(error);
        });
    }, 1500);
  };
  poll(recovery);
}

function startRecovery(context: PortalContext, endpoint: WebhookEndpoint, done: () => void): void {
  const since = el('input', { type: 'datetime-local', name: 'since', step: '1' });
  // Local time in the input; a day back unless the merchant picks another start.
  const dayAgo = new Date(Date.now() - 24 * 60 * 60_000);
  since.value = new Date(dayAgo.getTime() - dayAgo.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
  const intro = el(
    'p',
    {},
    'Redelivers every delivery to this endpoint that failed for good since the time below (your time zone).',
  );
  formDialog('Recover failed deliveries', [intro, field('Since', since)], 'Start recovery', async () => {
    const start = new Date(since.value);
    if (Number.isNaN(start.getTime())) throw new Error('Pick the date and time to recover from.');
    const recovery = await context.api.send<WebhookRecovery>(
      'POST',
      `${endpointPath(context, endpoint.webhookEndpointId)}/recover`,
      { since: start.toISOString() },
    );
    return () => watchRecovery(context, endpoint, recovery, done);
  });
}

async function rotateSecret(context: PortalContext, endpoint: WebhookEndpoint): Promise<void> {
  const confirmed = await confirmAction(
    'Rotate the signing secret?',
    `${endpointTitle(endpoint)} gets a new secret; deliveries are signed with it from now on.`,
    'Rotate secret',
  );
  if (!confirmed) return;
  const rotated = await context.api.send<WebhookEndpointWithSecret>(
    'POST',
    `${endpointPath(context, endpoint.webhookEndpointId)}/rotate-secret`,
  );
  showSecret(context, rotated.signingSecret);
}

async function remove(context: PortalContext, endpoint: WebhookEndpoint, done: () => void): Promise<void> {
  const confirmed = await confirmAction(
    `Delete ${endpointTitle(endpoint)}?`,
    'It receives no more deliveries. This cannot be undone.',
    'Delete endpoint',
  );
  if (!confirmed) return;
  await context.api.send('DELETE', endpointPath(context, endpoint.webhookEndpointId));
  context.announce(`Deleted ${endpointTitle(endpoint)}.`);
  done();
}

async function toggle(context: PortalContext, endpoint: WebhookEndpoint, done: () => void): Promise<void> {
  const status = endpoint.status === 'active' ? 'disabled' : 'active';
  await context.api.send('PATCH', endpointPath(context, endpoint.webhookEndpointId), { status });
  context.announce(
    status === 'active' ? `Enabled ${endpointTitle(endpoint)}.` : `Disabled ${endpointTitle(endpoint)}.`,
  );
  done();
}

/** The row of an endpoint's controls; `done` re-renders what shows it. */
export function endpointActions(
  context: PortalContext,
  endpoint: WebhookEndpoint,
  done: () => void,
): HTMLElement {
  const run = (action: () => Promise<void> | void) => () => {
    Promise.resolve()
      .then(action)
      .catch((error: unknown) => context.alertError(error));
  };
  const title = endpointTitle(endpoint);
  return el(
    'div',
    { class: 'actions', role: 'group', 'aria-label': `Manage ${title}` },
    button(
      'Edit',
      run(() => openEndpointForm(context, endpoint, done)),
      { class: 'secondary' },
    ),
    button(
      endpoint.status === 'active' ? 'Disable' : 'Enable',
      run(() => toggle(context, endpoint, done)),
      { class: 'secondary' },
    ),
    button(
      'Send test',
      run(() => sendTest(context, endpoint)),
      { class: 'secondary' },
    ),
    button(
      'Recover failed',
      run(() => startRecovery(context, endpoint, done)),
      { class: 'secondary' },
    ),
    button(
      'Rotate secret',
      run(() => rotateSecret(context, endpoint)),
      { class: 'secondary' },
    ),
    button(
      'Delete',
      run(() => remove(context, endpoint, done)),
      { class: 'danger' },
    ),
  );
}
