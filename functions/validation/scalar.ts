import * as z from 'zod/mini';
import { schemaMeta } from './schema-meta';

/** A JSON string, integer, boolean or null: the values of an event's payload fields. */
export function scalar() {
  const schema = z.union([z.string(), z.int(), z.boolean(), z.null()]);
  // One alternative per type: the integer's safe range is the service's business, not the document's.
  schemaMeta.add(schema, {
    anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'boolean' }, { type: 'null' }],
  });
  return schema;
}
