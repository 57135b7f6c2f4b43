import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ProcessorMetricNames } from '../../../functions/payments/processor-metric-names';
import { processorMetrics } from '../../../functions/payments/processor-metrics';
import { routeList } from '../../../functions/routes';
import { emfLine, lambdaEnvironment } from '../../support/emf';
import { printedJsonLinesDuring } from '../../support/printed-json-lines';

const lambda = lambdaEnvironment('MerchantPayments-production-payInvoice', 'production');

describe('processorMetrics', () => {
  it('writes one EMF line per call in Lambda: namespace MerchantPayments, dimensions exactly {service, stage}', async () => {
    const metrics = processorMetrics(lambda);
    const lines = await printedJsonLinesDuring(async () => {
      metrics.recordCall('failed');
      metrics.recordCall('answered');
    });
    // The alarm matches the dimension set exactly: no dimension besides service and stage.
    const metricsDeclared = [
      { Name: ProcessorMetricNames.calls, Unit: 'Count' },
      { Name: ProcessorMetricNames.errors, Unit: 'Count' },
    ];
    expect(lines).toEqual([
      emfLine('production', metricsDeclared, { ProcessorCalls: 1, ProcessorErrors: 1 }),
      emfLine('production', metricsDeclared, { ProcessorCalls: 1, ProcessorErrors: 0 }),
    ]);
  });

  it('writes nothing outside Lambda (the local runtime, tests)', async () => {
    const metrics = processorMetrics({ STAGE: 'sandbox' });
    const lines = await printedJsonLinesDuring(async () => metrics.recordCall('failed'));
    expect(lines).toEqual([]);
  });

  // measuredProcessorCall records the metrics, and callProcessor runs through it
  // (test/integration/store/payments.test.ts): a route that called the processor any other way would
  // leave the processor-errors alarm blind to it.
  it('is recorded by every route that calls the processor, through callProcessor or measuredProcessorCall', () => {
    const processorRoutes = routeList.filter((route) => route.callsProcessor === true);
    expect(processorRoutes.map((route) => route.operationId).sort()).toEqual([
      'createCheckoutSession',
      'createRefund',
      'createSandboxPayment',
      'linkProcessorAccount',
      'payInvoice',
      'refundSandboxPayment',
    ]);
    for (const route of processorRoutes) {
      const source = readFileSync(new URL(`../../../functions/${route.handler}.ts`, import.meta.url), 'utf8');
      // refundAtOnce calls through callProcessor (checked below).
      const measured = ['callProcessor(', 'measuredProcessorCall(', 'refundAtOnce('].some((call) =>
        source.includes(call),
      );
      expect({ route: route.operationId, calls: measured }).toEqual({
        route: route.operationId,
        calls: true,
      });
    }
    const atOnce = readFileSync(
      new URL('../../../functions/api/payments/refund-at-once.ts', import.meta.url),
      'utf8',
    );
    expect(atOnce).toContain('callProcessor(');
  });
});
