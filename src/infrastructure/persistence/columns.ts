import type { EntitySchemaProperty } from '@mikro-orm/core';

/**
 * Maps the stored fields of a domain class. Derived getters and methods are left out on purpose,
 * which EntitySchema's own typing does not allow; each listed field is still type-checked.
 */
export const columns = <T>(properties: { [K in keyof T]?: EntitySchemaProperty<T[K], T> }) => properties as never;
