import { describe, expect, it } from 'vitest';
import { routeList, routes } from '../../../functions/routes';
import { publicRateLimit } from '../../../lib/constructs/public-rate-limit';
import { settingsOf } from '../../../lib/constructs/stage-settings';
import { committedStageConfig } from '../../../lib/stage-config';
import { buildOpenApi } from '../../../tools/openapi/build-openapi';
import { rateLimitLines } from '../../../tools/openapi/rate-limit-lines';

describe('rateLimitLines', () => {
  it("names each stage's per-key ceiling and throttle for a merchant route", () => {
    const [perKey, stage] = rateLimitLines(routes.listProducts);
    const sandbox = settingsOf('sandbox', committedStageConfig('sandbox'));
    const production = settingsOf('production', committedStageConfig('production'));
    expect(perKey).toContain(
      `${sandbox.apiKeyCeiling.requests} per ${sandbox.apiKeyCeiling.windowSeconds} seconds in sandbox, ` +
        `${production.apiKeyCeiling.requests} per ${production.apiKeyCeiling.windowSeconds} seconds in production`,
    );
    expect(stage).toContain(
      `${sandbox.throttle.rateLimit} a second (bursts of ${sandbox.throttle.burstLimit}) in sandbox, ` +
        `${production.throttle.rateLimit} a second (bursts of ${production.throttle.burstLimit}) in production`,
    );
  });

  it('names the per-address limit and the route throttle once for a pay route, as both stages agree', () => {
    const [perAddress, perRoute] = rateLimitLines(routes.getPayInvoice);
    expect(perAddress).toContain(
      `more than ${publicRateLimit.requests} per ${publicRateLimit.windowSeconds} seconds (\`Retry-After: ${publicRateLimit.windowSeconds}\`)`,
    );
    const { rateLimit, burstLimit } = settingsOf(
      'production',
      committedStageConfig('production'),
    ).publicRouteThrottle;
    expect(settingsOf('sandbox', committedStageConfig('sandbox')).publicRouteThrottle).toEqual({
      rateLimit,
      burstLimit,
    });
    expect(perRoute).toContain(
      `more than ${rateLimit} a second (bursts of ${burstLimit}) (\`Retry-After: 1\`)`,
    );
  });

  it("adds the route's own limit last", () => {
    const lines = rateLimitLines(routes.payInvoice);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe(`  - ${routes.payInvoice.ownRateLimit}`);
  });

  it('gives every 429 of the document its limits and the Retry-After header', () => {
    const document = buildOpenApi(routeList);
    for (const route of routeList) {
      const operation = document.paths[route.path]?.[route.method.toLowerCase() as 'get'];
      const tooMany = operation?.responses['429'];
      expect(tooMany?.headers, `${route.method} ${route.path}`).toEqual({
        'Retry-After': { $ref: '#/components/headers/Retry-After' },
      });
      expect(tooMany?.description.split('\n').slice(1)).toEqual(rateLimitLines(route));
    }
  });
});
