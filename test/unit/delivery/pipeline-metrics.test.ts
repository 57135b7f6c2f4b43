import { describe, expect, it } from 'vitest';
import { PipelineMetricNames } from '../../../functions/delivery/pipeline-metric-names';
import { pipelineMetrics } from '../../../functions/delivery/pipeline-metrics';
import { emfLine, lambdaEnvironment } from '../../support/emf';
import { printedJsonLinesDuring } from '../../support/printed-json-lines';

const lambda = lambdaEnvironment('merchant-payments-sandbox-dispatcher', 'sandbox');

describe('pipelineMetrics', () => {
  it('writes one EMF line in Lambda: namespace MerchantPayments, dimensions exactly {service, stage}, counts summed', async () => {
    const metrics = pipelineMetrics(lambda);
    const lines = await printedJsonLinesDuring(async () => {
      metrics.count(PipelineMetricNames.attempts);
      metrics.count(PipelineMetricNames.attempts);
      metrics.count(PipelineMetricNames.succeeded);
      metrics.firstAttemptLag(1500);
      metrics.publish();
    });
    // The alarms match the dimension set exactly: no dimension besides service and stage.
    expect(lines).toEqual([
      emfLine(
        'sandbox',
        [
          { Name: 'FirstAttemptLag', Unit: 'Milliseconds' },
          { Name: 'DeliveryAttempts', Unit: 'Count' },
          { Name: 'DeliveriesSucceeded', Unit: 'Count' },
        ],
        { FirstAttemptLag: 1500, DeliveryAttempts: 2, DeliveriesSucceeded: 1 },
      ),
    ]);
  });

  it('writes a count recorded as 0, and nothing at all when nothing was recorded', async () => {
    const metrics = pipelineMetrics(lambda);
    const lines = await printedJsonLinesDuring(async () => {
      metrics.publish();
      metrics.count(PipelineMetricNames.overdueDeliveries, 0);
      metrics.publish();
      metrics.publish();
    });
    expect(lines).toEqual([expect.objectContaining({ OverdueDeliveries: 0, stage: 'sandbox' })]);
  });

  it('writes nothing outside Lambda (the local runtime, tests)', async () => {
    const metrics = pipelineMetrics({ STAGE: 'sandbox', POWERTOOLS_SERVICE_NAME: 'merchant-payments-local' });
    const lines = await printedJsonLinesDuring(async () => {
      metrics.count(PipelineMetricNames.attempts);
      metrics.publish();
    });
    expect(lines).toEqual([]);
  });
});
