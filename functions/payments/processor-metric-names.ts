/**
 * The payment processor calls' CloudWatch metrics, written as EMF lines by every route that calls
 * the processor and read by the stack's alarm and dashboard. They share the delivery pipeline's
 * namespace and dimensions {service, stage} (`PipelineMetricNames`), so one helper builds both.
 */
export const ProcessorMetricNames = {
  /** One per charge or refund the route sent to the processor. */
  calls: 'ProcessorCalls',
  /** A call that got no answer (it threw: unreachable, timed out, refused); a decline is an answer. */
  errors: 'ProcessorErrors',
} as const;
