/**
 * The monitoring service as a library: the domain, the use cases and their ports, and a
 * composition that wires them to PostgreSQL without any HTTP framework. The Express host is a
 * separate entry point (`monitoring-service/http`).
 */
import 'reflect-metadata';
import pino, { type Logger } from 'pino';
import type { Container } from 'inversify';
import { loadConfig, type AppConfig } from './main/config';
import { createContainer } from './main/container';
import { openDatabase, type Database } from './infrastructure/persistence/database';
import { startEmbeddedPostgres } from './infrastructure/persistence/embedded-postgres';
import { RequestContext } from '@mikro-orm/postgresql';

export { AppError, isAppError } from './domain/shared/app-error';
export { ERROR_CODES, type ErrorCode } from './domain/shared/error-codes';
export type { TenantScope } from './domain/shared/tenant-scope';
export * from './domain/identity/organization';
export * from './domain/identity/user';
export * from './domain/identity/role';
export * from './domain/identity/api-token';
export * from './domain/identity/account-deletion';
export * from './domain/identity/step-up';
export type { Actor, CallerKind } from './application/shared/actor';
export type { Clock } from './application/shared/clock';
export * from './application/identity/ports';
export { AuthenticateCaller, type Caller, type CredentialResolver } from './application/identity/authenticate-caller';
export { SignUp } from './application/identity/sign-up';
export { SignIn } from './application/identity/sign-in';
export { SignOut } from './application/identity/sign-out';
export { VerifyTotp } from './application/identity/verify-totp';
export { EnableTwoFactor, DisableTwoFactor } from './application/identity/two-factor';
export { UserAdministration } from './application/identity/user-administration';
export { OrganizationSettings, PlatformAdministration } from './application/identity/organization-settings';
export { ApiTokens } from './application/identity/api-tokens';
export { AccountDeletion } from './application/identity/account-deletion';
export { CheckHealth } from './application/identity/check-health';
export { CheckReadiness } from './application/identity/check-readiness';
export { loadConfig, type AppConfig } from './main/config';

export interface MonitoringLibrary {
  /** Resolve any use case: `library.get(ApiTokens).mint(actor, 'organization', {...})`. */
  get<T>(useCase: abstract new (...args: never[]) => T): T;
  /** Run calls inside one unit of work (one ORM context), as the HTTP host does per request. */
  run<T>(work: () => Promise<T>): Promise<T>;
  readonly container: Container;
  close(): Promise<void>;
}

/**
 * Opens the library on PostgreSQL (DATABASE_URL, or an embedded server under DATA_DIR), applies
 * migrations and wires every use case. No HTTP server is started and Express is never loaded.
 */
export async function openMonitoringLibrary(
  config: AppConfig = loadConfig(), logger: Logger = pino({ level: config.logLevel }),
): Promise<MonitoringLibrary> {
  const embedded = config.databaseUrl ? undefined : await startEmbeddedPostgres(config.dataDir);
  const database: Database = await openDatabase(config.databaseUrl ?? embedded!.url, logger);
  const container = createContainer(config, logger, database);
  return {
    container,
    get: (useCase) => container.get(useCase as never),
    run: (work) => RequestContext.create(database.orm.em, work),
    close: async () => {
      await database.close();
      await embedded?.stop();
    },
  };
}
