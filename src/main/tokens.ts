/** Composition-root tokens for infrastructure singletons (ports carry their own tokens beside them). */
export const CONFIG = Symbol.for('AppConfig');
export const LOGGER = Symbol.for('Logger');
export const ORM = Symbol.for('MikroORM');
export const SQL = Symbol.for('SqlRunner');
export const CALLER_CACHE = Symbol.for('CallerCache');
export const CONTEXT_SQL = Symbol.for('ContextSql');
