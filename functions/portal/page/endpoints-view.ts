import type { ListPage, WebhookEndpoint } from './api-types';
import { button, el, replaceChildren } from './dom';
import { endpointActions, openEndpointForm } from './endpoint-actions';
import type { PortalContext } from './portal-context';
import { successMeter } from './success-meter';
import { emptyState, endpointTitle, facts, statusBadge, timeElement } from './widgets';

export function endpointsPath(context: PortalContext): string {
  return `/merchants/${encodeURIComponent(context.session.merchantId)}/webhook-endpoints`;
}

/** The endpoint's state in words: its status and since when it fails. */
export function endpointFacts(endpoint: WebhookEndpoint): HTMLDListElement {
  return facts([
    ['URL', el('code', {}, endpoint.url)],
    ['Status', statusBadge(endpoint.status)],
    ['Event types', endpoint.eventTypes.join(', ')],
    [
      'Last success',
      endpoint.lastSucceededAt === undefined ? 'None yet' : timeElement(endpoint.lastSucceededAt),
    ],
    ['Failing since', endpoint.failingSince === undefined ? undefined : timeElement(endpoint.failingSince)],
  ]);
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
