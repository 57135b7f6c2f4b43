/**
 * The merchant portal's script (docs/decisions/merchant-portal-page.md): opens the session the link
 * carries, then shows the merchant's webhook endpoints, deliveries and events through the service's
 * own routes. `functions/portal/build-portal-page.ts` bundles it into the page's one script asset.
 */

import { renderDelivery } from './delivery-view';
import { byId, el, replaceChildren } from './dom';
import { renderEndpoint } from './endpoint-view';
import { renderEndpoints } from './endpoints-view';
import { renderEvent, renderEvents } from './events-view';
import { LinkProblem, linkMessage } from './link-messages';
import { ApiError, portalApi, SessionEndedError } from './portal-api';
import { type PortalContext, type PortalPlace, placeOf, searchOf } from './portal-context';
import { portalLocation } from './portal-location';
import { forgetSession, openSession } from './portal-session';

const view = byId('view', HTMLDivElement);
const status = byId('status', HTMLParagraphElement);
const alertBox = byId('alert', HTMLDivElement);
const nav = byId('nav', HTMLElement);
const scope = byId('scope', HTMLParagraphElement);

/** Set once the session ended: nothing renders or polls after that. */
let ended = false;

function showProblem(problem: LinkProblem): void {
  const { heading, text } = linkMessage(problem);
  nav.hidden = true;
  scope.textContent = '';
  status.textContent = '';
  alertBox.textContent = '';
  for (const dialog of document.querySelectorAll('dialog')) dialog.remove();
  const title = el('h1', { tabindex: '-1' }, heading);
  replaceChildren(view, title, el('p', {}, text));
  title.focus();
}

function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'forbidden') return 'This portal session may not do that.';
    return error.message;
  }
  return 'The service could not be reached. Check your connection and try again.';
}

function render(context: PortalContext, place: PortalPlace, focus: boolean): void {
  alertBox.textContent = '';
  const renderers: Record<PortalPlace['view'], () => Promise<void>> = {
    endpoints: () => renderEndpoints(context, view),
    endpoint: () => renderEndpoint(context, view, place),
    delivery: () => renderDelivery(context, view, place),
    events: () => renderEvents(context, view),
    event: () => renderEvent(context, view, place),
  };
  for (const link of nav.querySelectorAll('a')) {
    const current = (link.dataset.view === 'events') === (place.view === 'events' || place.view === 'event');
    if (current) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  replaceChildren(view, el('p', { class: 'loading' }, 'Loading…'));
  renderers[place.view]().then(
    () => {
      if (focus && !ended) view.querySelector<HTMLElement>('h1')?.focus();
    },
    (error: unknown) => context.alertError(error),
  );
}

function startPortal(
  basePath: string,
  portalSessionId: string,
  sessionToken: string,
  base: Omit<PortalContext, 'api' | 'navigate' | 'hrefOf' | 'announce' | 'alert' | 'alertError'>,
): void {
  const endSession = () => {
    if (ended) return;
    ended = true;
    forgetSession(portalSessionId);
    showProblem(LinkProblem.sessionEnded);
  };
  // An announcement stays for the view its action opens in the same turn (a redelivery announces,
  // then opens its delivery) and is cleared by any later move, so no view shows another's news.
  let announced = false;
  const clearStaleStatus = () => {
    if (!announced) status.textContent = '';
  };
  const context: PortalContext = {
    ...base,
    api: portalApi(basePath, sessionToken, endSession),
    hrefOf: searchOf,
    navigate: (place) => {
      clearStaleStatus();
      history.pushState(null, '', `${location.pathname}${searchOf(place)}`);
      render(context, place, true);
    },
    announce: (message) => {
      status.textContent = message;
      announced = true;
      queueMicrotask(() => {
        announced = false;
      });
    },
    alert: (message) => {
      alertBox.textContent = message;
    },
    alertError: (error) => {
      if (error instanceof SessionEndedError || ended) return;
      alertBox.textContent = errorText(error);
    },
  };
  for (const link of nav.querySelectorAll('a')) {
    const place: PortalPlace = link.dataset.view === 'events' ? { view: 'events' } : { view: 'endpoints' };
    link.href = searchOf(place);
    link.addEventListener('click', (event) => {
      if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      context.navigate(place);
    });
  }
  window.addEventListener('popstate', () => {
    clearStaleStatus();
    if (!ended) render(context, placeOf(location.search), true);
  });
  nav.hidden = false;
  render(context, placeOf(location.search), false);
}

async function start(): Promise<void> {
  const where = portalLocation(location.pathname);
  if (where === undefined) return showProblem(LinkProblem.invalidLink);
  const opening = await openSession(where.basePath, where.portalSessionId);
  if ('problem' in opening) return showProblem(opening.problem);
  const { session } = opening;
  const canManage = session.portalSession.scope === 'manage';
  scope.textContent = canManage ? 'You can view and change webhook settings.' : 'View only.';
  startPortal(where.basePath, where.portalSessionId, session.sessionToken, {
    session: session.portalSession,
    canManage,
  });
}

// A link opened again on the open page changes only its fragment, which loads nothing: the page
// loads again to take the token out of the address bar and open the session as a fresh load does.
window.addEventListener('hashchange', () => {
  if (location.hash.length > 1) location.reload();
});
start().catch(() => showProblem(LinkProblem.unavailable));
