/** A date-time as the API writes every one: ISO 8601 in UTC, with milliseconds and a Z. */
export const isoTimestamp = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
