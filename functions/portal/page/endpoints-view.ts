import type { ListPage, WebhookDelivery, WebhookEndpoint } from './api-types';
import { button, el, replaceChildren } from './dom';
import { endpointActions, openEndpointForm } from './endpoint-actions';
import { type LastSuccess, lastSucceededAtLagMs, lastSuccess } from './last-success';
import type { PortalContext } from './portal-context';
import { successMeter } from './success-meter';
import { emptyState, endpointTitle, facts, statusBadge, timeElement } from './widgets';

export function endpointsPath(context: PortalContext): string {
  return `/merchants/${encodeURIComponent(context.session.merchantId)}/webhook-endpoints`;
}

/**
 * The endpoint's state in words: its status and since when it fails. `listed`: the
 * deliveries shown under it, whose newest success "Last success" never reads older than.
 */
export function endpointFacts(
  endpoint: WebhookEndpoint,
  listed: readonly WebhookDelivery[] = [],
): HTMLDListElement {
  return facts([
    ['URL', el('code', {}, endpoint.url)],
    ['Status', statusBadge(endpoint.status)],
    ['Event types', endpoint.eventTypes.join(', ')],
    ['Last success', lastSuccessShown(lastSuccess(endpoint.lastSucceededAt, listed))],
    ['Failing since', endpoint.failingSince === undefined ? undefined : timeElement(endpoint.failingSince)],
  ]);
}

/** A last success in words: its time, and when the endpoint's record may lag, by how much at most. */
function lastSuccessShown(success: LastSuccess | undefined): Node | string {
  if (success === undefined) return 'None yet';
  if (!success.mayLag) return timeElement(success.at);
  const lag = `${lastSucceededAtLagMs / 60_000} minutes`;
  return el('span', {}, timeElement(success.at), ` (or up to ${lag} later)`);
}

function endpointCard(context: PortalContext, endpoint: WebhookEndpoint, refresh: () => void): HTMLElement {
  const headingId = `endpoint-${endpoint.webhookEndpointId}`;
  const link = el(
    'a',
    { href: context.hrefOf({ view: 'endpoint', endpointId: endpoint.webhookEndpointId }) },
    endpointTitle(endpoint),
  );
  link.addEventListener('click', (event) => {
    event.preventDefault();
    context.navigate({ view: 'endpoint', endpointId: endpoint.webhookEndpointId });
  });
  return el(
    'section',
    { class: 'card', 'aria-labelledby': headingId },
    el('h2', { id: headingId }, link),
    endpointFacts(endpoint),
    successMeter(context, endpoint.webhookEndpointId),
    context.canManage && endpointActions(context, endpoint, refresh),
  );
}

/** The endpoint list, each with its state and success rate, and (manage) the controls that change them. */
export async function renderEndpoints(context: PortalContext, view: HTMLElement): Promise<void> {
  const list = el('div', { class: 'cards' });
  const more = el('div');
  const refresh = () => void renderEndpoints(context, view);
  replaceChildren(
    view,
    el('h1', { tabindex: '-1' }, 'Webhook endpoints'),
    context.canManage && button('Add an endpoint', () => openEndpointForm(context, undefined, refresh)),
    list,
    more,
  );
  const load = async (cursor: string | undefined) => {
    const page = await context.api.get<ListPage<WebhookEndpoint>>(endpointsPath(context), {
      limit: '100',
      cursor,
    });
    for (const endpoint of page.items) list.append(endpointCard(context, endpoint, refresh));
    if (list.childElementCount === 0) {
      list.append(
        emptyState(
          context.canManage
            ? 'No webhook endpoints yet. Add one to receive events.'
            : 'No webhook endpoints yet.',
        ),
      );
    }
    replaceChildren(
      more,
      page.page.hasMore &&
        page.page.nextCursor !== undefined &&
        button('Show more endpoints', () => void load(page.page.nextCursor).catch(context.alertError)),
    );
  };
  await load(undefined);
}
