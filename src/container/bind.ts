import type { ContainerModuleLoadOptions, ServiceIdentifier } from 'inversify';
import type { Logger } from 'pino';
import type { Database } from '../adapters/persistence/database.js';

/**
 * What the modules of the composition root share: the keys of the container's inputs (bound as constants by
 * buildContainer) and three ways of binding a plain class without decorators.
 */

export const Em = Symbol.for('EntityManager');
export const SqlRunner = Symbol.for('Sql');
export const AppConfig = Symbol.for('Config');

/** What only a serving process has (forumctl and most tests have none): for the HTTP app and the job runtime. */
export interface ServerHost {
  /** The open database: its per-request context, its readiness and its pools. */
  database: Database;
  logger: Logger;
  version: string;
  /** One of WEB_CONCURRENCY > 1 workers: a metrics scrape sums every worker's. */
  clusterWorker: boolean;
}
export const ServerHost = Symbol.for('ServerHost');

export type Bind = ContainerModuleLoadOptions['bind'];

/** A singleton built by `factory` from the services named in `deps`, in order: no decorators in the core. */
export function provide<T, A extends unknown[]>(
  bind: Bind,
  id: ServiceIdentifier<T>,
  factory: (...args: A) => T,
  deps: ServiceIdentifier[],
): void {
  bind(id)
    .toResolvedValue(factory as (...args: unknown[]) => T, deps as never)
    .inSingletonScope();
}

/** Binds a use case (or any plain class) under its own class, built from the services named in `deps`. */
export function useCaseBinder(bind: Bind) {
  return <T, A extends unknown[]>(Class: new (...args: A) => T, deps: ServiceIdentifier[]): void =>
    provide(bind, Class, (...args: A) => new Class(...args), deps);
}

/**
 * What a driving adapter is given (a router, forumctl): a record of services, each resolved by its key. The keys
 * are checked against the record's type where the key is a class.
 */
export function record<T extends object>(
  bind: Bind,
  id: ServiceIdentifier<T>,
  ids: { [K in keyof T]-?: ServiceIdentifier<T[K]> },
): void {
  const names = Object.keys(ids) as (keyof T)[];
  provide(
    bind,
    id,
    (...services: unknown[]) => Object.fromEntries(names.map((name, i) => [name, services[i]])) as T,
    names.map((name) => ids[name]),
  );
}
