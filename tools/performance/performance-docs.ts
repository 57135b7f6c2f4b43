import { readFile } from 'node:fs/promises';
import { Stage } from '../../functions/config';
import { ruleMetricNames, webAclRules } from '../../lib/constructs/public-routes-web-acl';
import { stageSettings } from '../../lib/constructs/stage-settings';
import { committedStageConfig } from '../../lib/stage-config';
import { type Measurements, operationOrder } from './capacity-model';
import { costLines, pricedStage } from './cost-lines';
import { decisionFigures, renderDecisionTable } from './gateway-decision';
import { hotKeys } from './hot-keys';
import { type Figures, staleFigures, unmarkedFigures, writeFigures } from './model-figures';
import {
  readModelInputs,
  renderCeilingsTable,
  renderCostTable,
  renderMonthlyTable,
  renderUnitsTable,
  replaceGeneratedBlock,
} from './performance-models';
import { modelFigures } from './prose-figures';

/** The documents the models write, by path from the repository root. */
export const PerformanceDocPaths = {
  performance: 'docs/performance.md',
  decision: 'docs/decisions/http-api-for-merchant-routes.md',
} as const;
export type PerformanceDoc = keyof typeof PerformanceDocPaths;

/** The text of each document the models write. */
export type PerformanceDocs = Readonly<Record<PerformanceDoc, string>>;

/** Where `doc` is, from this module. */
export function performanceDocUrl(doc: PerformanceDoc): URL {
  return new URL(`../../${PerformanceDocPaths[doc]}`, import.meta.url);
}

/** The documents as they are on disk: the text the models write into. */
export async function readPerformanceDocs(): Promise<PerformanceDocs> {
  return {
    performance: await readFile(performanceDocUrl('performance'), 'utf8'),
    decision: await readFile(performanceDocUrl('decision'), 'utf8'),
  };
}

/**
 * The documents with every generated table and every marked figure of their prose computed from
 * `measurements` and from the unit prices and assumptions of docs/performance.md's own table, the
 * rest of `current` kept as it is. Throws when a marker names a figure the models do not compute or
 * a computed figure has no marker: the prose and the models must name the same figures.
 */
export function renderPerformanceDocs(measurements: Measurements, current: PerformanceDocs): PerformanceDocs {
  const inputs = readModelInputs(current.performance);
  const { measured, sent } = measurements;
  const operations = operationOrder.map((operation) => {
    const units = measured.get(operation);
    if (units === undefined) throw new Error(`${operation} was not measured`);
    return units;
  });
  const tables: [string, string][] = [
    ['units', renderUnitsTable(operations)],
    ['ceilings', renderCeilingsTable(hotKeys, measured)],
    ['costs', renderCostTable(costLines, measured, sent, inputs, pricedStage)],
    ['monthly', renderMonthlyTable(stagesMonthly(), inputs)],
  ];
  const performance = tables.reduce(
    (doc, [block, content]) => replaceGeneratedBlock(doc, block, content),
    current.performance,
  );
  const decision = replaceGeneratedBlock(
    current.decision,
    'gateways',
    renderDecisionTable(measurements, inputs),
  );
  return {
    performance: withFigures('performance', performance, modelFigures(measurements, inputs)),
    decision: withFigures('decision', decision, decisionFigures(measurements, inputs)),
  };
}

/** Each stage's web ACL rules, from the stack, and its X-Ray sampling, from its stage file. */
function stagesMonthly() {
  return Object.values(Stage).map((stage) => ({
    stage,
    webAclRules: webAclRules(stage, stageSettings[stage].apiKeyCeiling, ruleMetricNames('probe')).length,
    traceSampling: committedStageConfig(stage).traceSampling,
  }));
}

function withFigures(doc: PerformanceDoc, text: string, figures: Figures): string {
  const written = writeFigures(text, figures);
  const problems = [
    ...staleFigures(written, figures),
    ...unmarkedFigures(written, figures).map((name) => `${name}: no marker states it`),
  ];
  if (problems.length > 0) throw new Error(`${PerformanceDocPaths[doc]}: ${problems.join('; ')}`);
  return written;
}
