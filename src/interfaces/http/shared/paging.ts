import { z } from 'zod';

/**
 * Page parameters of the paged lists. Query values are strings; an empty one coerces to 0 and
 * fails validation, which is the 400 the spec requires for `page=` or `perPage=`.
 */
export const PageQuery = {
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  perPage: z.coerce.number().int().min(1).max(200).default(50),
};

/** A positive integer id in the query (organizationId, customerId); empty is a 400. */
export const QueryId = z.coerce.number().int().positive().max(2_147_483_647);

export const pagedSchema = <T extends z.ZodType>(item: T, id: string) =>
  z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), perPage: z.number().int() }).meta({ id });

export const paged = <T>(items: T[], total: number, page: { page: number; perPage: number }) => ({
  items,
  total,
  page: page.page,
  perPage: page.perPage,
});

/** A page as `paged` shapes it, written from items already encoded as JSON (a list built as text). */
export const pagedText = (items: readonly string[], total: number, page: { page: number; perPage: number }): string =>
  `{"items":[${items.join(',')}],"total":${total},"page":${page.page},"perPage":${page.perPage}}`;

/** Query of a paged list that takes no other parameter. */
export const PageOnlyQuery = z.object(PageQuery).strict();

/**
 * One page of a list read whole (the small per-organization collections: tokens, tags, channels,
 * teams...): `total` counts the whole list, `items` is the requested slice.
 */
export const pageOf = <T>(all: T[], page: { page: number; perPage: number }) =>
  paged(all.slice((page.page - 1) * page.perPage, page.page * page.perPage), all.length, page);
