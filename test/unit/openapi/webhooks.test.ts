import { describe, expect, it } from 'vitest';
import { newId } from '../../../functions/domain/ids';
import { subscribableEventTypes } from '../../../functions/domain/webhook-endpoint';
import { newSigningSecret } from '../../../functions/domain/webhook-secret';
import { signedDelivery } from '../../../functions/domain/webhook-signature';
import { routeList } from '../../../functions/routes';
import { schemaMeta } from '../../../functions/validation/schema-meta';
import { buildOpenApi } from '../../../tools/openapi/build-openapi';
import { webhookDefinitions } from '../../../tools/openapi/webhooks';
import { document, validatorOf } from '../../support/document-schemas';
import { builtEvents, deliveredBodyOf, testDeliveryBodies } from '../../support/event-payloads';
import { readReceivingGuide } from '../../support/guide-vectors';
import { eventPayloadFields } from '../../support/spec-fields';

// The committed docs/openapi.json, read as a typed client generated from it would (openapi.test.ts
// checks that it is the document the code builds today).

interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly required: boolean;
  readonly schema: object;
}

const webhookOf = (type: string) => document.webhooks?.[type]?.post;

const componentOf = (ref: string) => document.components.schemas[ref.slice('#/components/schemas/'.length)];

function parametersOf(type: string): Parameter[] {
  return (webhookOf(type)?.parameters ?? []).map(
    ({ $ref }: { $ref: string }) =>
      document.components.parameters[$ref.slice('#/components/parameters/'.length)],
  );
}

/** The problems a strict client finds with `body` as the request of the webhook of `type` (none: []). */
function bodyProblems(type: string, body: unknown): string[] {
  const validate = validatorOf(webhookOf(type).requestBody.content['application/json'].schema);
  return validate(body)
    ? []
    : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}

/** The guide's event type table: each type and when it is sent, as plain text. */
const sentWhen = Object.fromEntries(
  Array.from(
    readReceivingGuide().matchAll(/^\| `(\w+\.\w+)` \| ([^|]+) \| [^|]+ \|$/gm),
    ([, type, when]) => [type, when?.trim().replaceAll('`', '')],
  ),
);

/** Every header the dispatcher sends on a delivery, lower case, with the optional ones `ordering` adds. */
function sentHeaders(ordering: { sequence: number | null; objectVersion: number | null; test?: true }) {
  const { headers } = signedDelivery(
    {
      webhookDeliveryId: newId('whkdel'),
      eventType: 'payments.PaymentCreated',
      createdAt: '2026-03-01T12:00:00.000Z',
      data: {},
      eventId: newId('evt'),
      ...ordering,
    },
    newSigningSecret((size) => new Uint8Array(size).fill(7)),
    1_772_366_400,
  );
  const { 'Content-Type': _typeIsTheBodys, ...rest } = headers;
  return rest as Record<string, string>;
}

describe('docs/openapi.json webhooks', () => {
  it('has one POST per subscribable event type, in their order, each with its own operationId', () => {
    expect(Object.keys(document.webhooks ?? {})).toEqual(subscribableEventTypes);
    const pathIds = Object.values(document.paths).flatMap((item: any) =>
      Object.values(item).map((operation: any) => operation.operationId),
    );
    const webhookIds = subscribableEventTypes.map((type) => webhookOf(type)?.operationId);
    expect(new Set([...pathIds, ...webhookIds]).size).toBe(pathIds.length + webhookIds.length);
  });

  it.each(subscribableEventTypes)('says when %s is sent as the guide does', (type) => {
    expect(webhookOf(type)?.summary).toBe(sentWhen[type]);
  });

  it.each(subscribableEventTypes)(
    'types the body of %s: the envelope, its type and the fields of its data',
    (type) => {
      const body = webhookOf(type)?.requestBody;
      expect(body?.required).toBe(true);
      const envelope = componentOf(body?.content['application/json'].schema.$ref ?? '');
      expect(envelope).toMatchObject({
        required: ['id', 'type', 'createdAt', 'data'],
        additionalProperties: false,
        properties: { type: { const: type } },
      });
      const data = componentOf(envelope.properties.data.$ref);
      expect(Object.keys(data.properties).sort()).toEqual(eventPayloadFields[type]);
      expect([...data.required].sort()).toEqual(eventPayloadFields[type]);
      expect(data.additionalProperties).toBe(false);
      expect(webhookOf(type)?.responses).toEqual({
        '2XX': { description: 'Any 2xx acknowledges the delivery.' },
      });
    },
  );

  it.each(Object.entries(builtEvents()))(
    'lets a strict client take the delivery body of %s',
    (_what, event) => {
      expect(bodyProblems(event.eventType, deliveredBodyOf(event))).toEqual([]);
    },
  );

  it.each(testDeliveryBodies())('lets a strict client take a test delivery of $type', ({ type, body }) => {
    expect(bodyProblems(type, body)).toEqual([]);
  });

  it('refuses, as a strict client, a body with a field its type does not document', () => {
    const [event] = Object.values(builtEvents());
    if (event === undefined) throw new Error('no event built');
    const body = deliveredBodyOf({ ...event, payload: { ...event.payload, note: 'extra' } });
    expect(bodyProblems(event.eventType, body)).toEqual(['/data must NOT have additional properties']);
  });

  it.each(subscribableEventTypes)('requires on %s exactly the headers every delivery carries', (type) => {
    const always = Object.keys(sentHeaders({ sequence: null, objectVersion: null }));
    const parameters = parametersOf(type);
    expect(parameters.every((parameter) => parameter.in === 'header')).toBe(true);
    const required = parameters.filter((parameter) => parameter.required).map(({ name }) => name);
    expect(required.sort()).toEqual(always.sort());
  });

  it('documents every header a delivery can carry, each value valid under its schema', () => {
    const sent = sentHeaders({ sequence: 42, objectVersion: 4, test: true });
    const parameters = parametersOf(subscribableEventTypes[0] ?? '');
    expect(parameters.map(({ name }) => name).sort()).toEqual(Object.keys(sent).sort());
    const invalid = parameters.filter(({ name, schema }) => !validatorOf(schema)(sent[name]));
    expect(invalid.map(({ name }) => name)).toEqual([]);
  });
});

describe('buildOpenApi webhooks', () => {
  it('leaves webhooks and their header parameters out of a document of routes alone', () => {
    const built = buildOpenApi(routeList, []);
    expect(built.webhooks).toBeUndefined();
    expect(Object.keys(built.components.parameters)).toEqual(['IdempotencyKey']);
    const envelopes = webhookDefinitions.map(({ delivery }) => schemaMeta.get(delivery)?.id);
    expect(envelopes).toContain('PaymentCreatedDelivery');
    expect(Object.keys(built.components.schemas).filter((name) => envelopes.includes(name))).toEqual([]);
  });

  it('refuses a webhook whose operationId a route already carries', () => {
    const [first, ...rest] = webhookDefinitions;
    const [route] = routeList;
    if (first === undefined || route === undefined) throw new Error('no webhook or route');
    expect(() => buildOpenApi(routeList, [{ ...first, operationId: route.operationId }, ...rest])).toThrow(
      `Two operations carry the operationId "${route.operationId}"`,
    );
  });
});
