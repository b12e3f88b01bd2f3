import type { EntitySchema } from '@mikro-orm/core';
import { identitySchemas } from '../identity/identity.schemas';

/** The ORM mappings of every context. */
export const entitySchemas: EntitySchema<any>[] = [...identitySchemas];
