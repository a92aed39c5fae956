/** Id checks shared by every layer. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a string is a UUID: ids that are not cannot name a row, so lookups answer 404 without a query. */
export const isUuid = (s: string) => UUID.test(s);
