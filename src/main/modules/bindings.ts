import { ContainerModule, type Container, type ContainerModuleLoadOptions, type ServiceIdentifier } from 'inversify';
import type { Bound, Token } from '../../application/shared/token';

/** What a binding is made from: the other bindings, each typed by its token or class. */
export interface Ctx {
  get<T>(id: Token<T> | Bound<T>): T;
  get<T>(id: Token<T> | Bound<T>, options: { optional: true }): T | undefined;
}

/** Binds a port's token, or a class to itself, to the one instance `make` builds from other bindings. */
export type Single = <T>(id: Token<T> | Bound<T>, make: (c: Ctx) => T) => void;

/**
 * A context's bindings, written one way: `single(TOKEN, (c) => new Adapter(c.get(OTHER)))` for each
 * adapter and use case (Inversify's own options stay at hand for the rare other kind).
 */
export const bindings = (register: (options: ContainerModuleLoadOptions & { single: Single }) => void): ContainerModule =>
  new ContainerModule((options) => {
    const single: Single = (id, make) => {
      options
        .bind(id as ServiceIdentifier<unknown>)
        .toDynamicValue((c) => make(c as unknown as Ctx))
        .inSingletonScope();
    };
    register({ ...options, single });
  });

/** A container's bindings as the typed `get` the modules' workers, closers and front handlers use. */
export const getterOf = (container: Container): Ctx['get'] =>
  ((id: ServiceIdentifier<unknown>, options?: { optional: true }) => container.get(id, options as never)) as Ctx['get'];
