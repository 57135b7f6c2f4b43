import * as z from 'zod/mini';
import { schemaMeta } from './schema-meta';

/**
 * An ISO 8601 UTC date-time ending in Z, to any fraction of a second, on a real calendar day
 * (leap years included). The OpenAPI document publishes this same pattern.
 */
export const dateTimePattern =
  /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z))$/;

export function dateTime() {
  const schema = z.string().check((payload) => {
    if (dateTimePattern.test(payload.value)) return;
    payload.issues.push({
      code: 'invalid_format',
      format: 'date-time',
      input: payload.value,
      continue: true,
    });
  });
  schemaMeta.add(schema, { format: 'date-time', pattern: dateTimePattern.source });
  return schema;
}
