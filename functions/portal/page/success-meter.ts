import type { ListPage, WebhookDelivery } from './api-types';
import { el } from './dom';
import type { PortalContext } from './portal-context';
import { recentDeliveries, SuccessWindow, successRate, successRateSummary } from './success-rate';

/**
 * An endpoint's success-rate bar: a `<meter>` (no inline style needed under the page's policy) with
 * its summary as text beside it (docs/decisions/portal-success-rate.md).
 */
export function successMeter(context: PortalContext, endpointId: string): HTMLElement {
  const labelId = `rate-${endpointId}`;
  const summary = el(
    'span',
    { id: labelId, class: 'rate-text' },
    'Counting the last 24 hours of deliveries…',
  );
  const meter = el('meter', {
    min: '0',
    max: '1',
    low: '0.9',
    high: '0.99',
    optimum: '1',
    value: '0',
    'aria-labelledby': labelId,
    hidden: true,
  });
  const path = `/merchants/${encodeURIComponent(context.session.merchantId)}/webhook-endpoints/${encodeURIComponent(endpointId)}/deliveries`;
  const now = new Date();
  recentDeliveries(
    (cursor) =>
      context.api.get<ListPage<WebhookDelivery>>(path, { limit: String(SuccessWindow.pageSize), cursor }),
    now,
  ).then(
    ({ deliveries, complete }) => {
      const rate = successRate(deliveries, now, complete);
      summary.textContent = successRateSummary(rate);
      if (rate.rate !== undefined) {
        meter.value = rate.rate;
        meter.hidden = false;
      }
    },
    () => {
      summary.textContent = 'The success rate could not be counted.';
    },
  );
  return el('div', { class: 'rate' }, meter, summary);
}
