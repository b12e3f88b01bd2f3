import type { EntitySchema } from '@mikro-orm/core';
import { identitySchemas } from '../identity/identity.schemas';
import { tenancySchemas } from '../tenancy/tenancy.schemas';

/** The ORM mappings of every context. */
export const entitySchemas: EntitySchema<any>[] = [...identitySchemas, ...tenancySchemas];
