declare const portType: unique symbol;

/**
 * The key a port is bound under: a symbol that carries its port's type, so whatever resolves it gets
 * that type without naming it again. Inversify takes it as a service identifier.
 */
export type Token<Port> = symbol & { readonly [portType]?: Port };

/** A port's token, named after the port (the name shows in Inversify's errors). */
export const token = <Port>(name: string): Token<Port> => Symbol.for(name) as Token<Port>;

/** A class bound under itself (a use case), abstract or not. */
export type Bound<T> = abstract new (...args: never[]) => T;

/** What a router, job or host needs, by name: each a port's token or a class bound under itself. */
export type Needs = Readonly<Record<string, Token<unknown> | Bound<unknown>>>;

/** The resolved form of `Needs`: the same names, each the instance its token or class stands for. */
export type Provided<N extends Needs> = {
  readonly [K in keyof N]: N[K] extends Bound<infer T> ? T : N[K] extends Token<infer P> ? P : never;
};
