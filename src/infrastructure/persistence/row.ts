/**
 * Column readers of the hand-written mappers. A row's types depend on the connection it came from:
 * MikroORM's (`sqlOf(tx)`, the ORM pool's `OrmPoolSql`) hands timestamps over as text, the plain pool as
 * `Date`; json may come parsed or as text. Each mapper reads its columns through these, whichever.
 */
export const dateOf = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

export const optionalDateOf = (value: Date | string | null): Date | null => (value === null ? null : dateOf(value));

export const jsonOf = <T>(value: unknown): T => (typeof value === 'string' ? (JSON.parse(value) as T) : (value as T));
