import { ruleMetricNames, webAclRules } from '../../lib/constructs/public-routes-web-acl';
import { stageSettings } from '../../lib/constructs/stage-settings';
import type { Measurements } from './capacity-model';
import { costLineNamed, pricedStage } from './cost-lines';
import { figureNumber } from './model-figures';
import {
  type GatewayOption,
  gatewayOptionCost,
  inputOf,
  lineCost,
  money,
  renderGatewayTable,
  times,
} from './performance-models';

/**
 * Ways to put a gateway in front of the merchant routes, which
 * docs/decisions/http-api-for-merchant-routes.md prices from the cost model; the first is today's.
 */
const gatewayOptions: readonly GatewayOption[] = [
  {
    name: 'REST API, web ACL on the stage (today)',
    gateway: 'restApiRequest',
    webAcl: true,
    traced: true,
    cloudFront: false,
  },
  {
    name: 'REST API, no web ACL (for scale: the pay routes need one)',
    gateway: 'restApiRequest',
    webAcl: false,
    traced: true,
    cloudFront: false,
  },
  { name: 'HTTP API', gateway: 'httpApiRequest', webAcl: false, traced: false, cloudFront: false },
  {
    name: 'CloudFront with a web ACL, then an HTTP API',
    gateway: 'httpApiRequest',
    webAcl: true,
    traced: false,
    cloudFront: true,
  },
];

/** The lines of the cost table the gateway decision prices: a read of one invoice and an issue. */
const decisionLines = { read: 'GET one invoice', write: 'Transition (issue an invoice)' } as const;

/** Merchant calls a month at which the decision states what each option saves. */
const decisionMonthlyMillions = 300;

function decisionLine(name: string, measurements: Measurements, inputs: Record<string, number>) {
  const line = costLineNamed(name);
  return { line, cost: lineCost(line, measurements.measured, measurements.sent, inputs, pricedStage) };
}

/** The decision's table: each option's dollars per million reads and writes against today's. */
export function renderDecisionTable(measurements: Measurements, inputs: Record<string, number>): string {
  const read = decisionLine(decisionLines.read, measurements, inputs);
  const write = decisionLine(decisionLines.write, measurements, inputs);
  return renderGatewayTable(gatewayOptions, read, write, inputs, pricedStage);
}

/** Every figure the gateway decision's prose states, by the name its marker carries there. */
export function decisionFigures(
  measurements: Measurements,
  inputs: Record<string, number>,
): Map<string, string> {
  const input = inputOf(inputs);
  const totals = (name: string) => {
    const { line, cost } = decisionLine(name, measurements, inputs);
    return gatewayOptions.map((option) => gatewayOptionCost(option, line, cost, inputs, pricedStage).total);
  };
  const [today = 0, , http = 0, cloudFront = 0] = totals(decisionLines.read);
  const [todayWrite = 0, , httpWrite = 0] = totals(decisionLines.write);
  const rate = (value: number) => `$${value}`;
  const rules = webAclRules(
    'production',
    stageSettings.production.apiKeyCeiling,
    ruleMetricNames('probe'),
  ).length;
  return new Map([
    ['price.rest', money(input('restApiRequest'))],
    ['price.http', money(input('httpApiRequest'))],
    ['price.waf', money(input('wafRequest'))],
    ['price.cloudFront', money(input('cloudFrontRequest'))],
    ['price.dataOut', rate(input('dataTransferOutGb'))],
    ['price.cloudFrontDataOut', rate(input('cloudFrontDataOutGb'))],
    ['today.read', money(today)],
    ['http.read', money(http)],
    ['http.ratio', times(http, today)],
    ['cloudFront.read', money(cloudFront)],
    ['cloudFront.ratio', times(cloudFront, today)],
    ['http.saving', money(today - http)],
    ['cloudFront.saving', money(today - cloudFront)],
    ['monthly.millions', figureNumber(decisionMonthlyMillions)],
    ['http.savingMonthly', money(decisionMonthlyMillions * (today - http))],
    ['cloudFront.savingMonthly', money(decisionMonthlyMillions * (today - cloudFront))],
    ['http.writeRatio', times(httpWrite, todayWrite)],
    ['webAcl.month', money(input('wafWebAclMonth') + rules * input('wafRuleMonth'))],
  ]);
}
