const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids in paths are uuids; anything else is simply not found (and never reaches PostgreSQL's uuid parser). */
export const isUuid = (value: string): boolean => UUID.test(value);
