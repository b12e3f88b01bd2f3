import type { SslMode, TcpCheckRequest } from '../../checks/check-request';
import type { KindField, KindMonitor } from './kind';

export const SSL_MODES = ['disable', 'require', 'verify-full'] as const satisfies readonly SslMode[];

/** The TLS of a database kind (Redis, PostgreSQL, MySQL): the same field, the same words, for each. */
export const sslModeField: KindField = {
  name: 'sslMode',
  label: 'TLS',
  help: 'disable (plain), require (encrypted, the certificate not verified) or verify-full (its chain and host name verified: sslInvalid otherwise)',
  input: { kind: 'enum', values: SSL_MODES },
  default: 'disable',
  protocolOnly: true,
};

/** The SQL kinds' own settings (PostgreSQL and MySQL share them). */
export const SQL_FIELDS: readonly KindField[] = [
  {
    name: 'database',
    label: 'Database',
    help: "The database logged in to; null: the server's default (PostgreSQL: the user's name; MySQL: none)",
    hint: "Empty: the server's default",
    input: { kind: 'string', max: 128, nullable: true },
    default: null,
    protocolOnly: true,
  },
  {
    name: 'query',
    label: 'Query',
    help: 'The SQL run once logged in (its first column of the first row is the result); default SELECT 1',
    input: { kind: 'string', max: 2048 },
    default: 'SELECT 1',
    protocolOnly: true,
  },
  {
    name: 'expectedResult',
    label: 'Expected result',
    help: 'The first column of the first row, as text, must equal this (assertionFailed otherwise); null: any answer is up',
    hint: 'Empty: any answer',
    input: { kind: 'string', max: 1024, nullable: true },
    default: null,
    protocolOnly: true,
  },
  sslModeField,
];

/** A database monitor in tcp checkMode is a bare port check (no credentials sent). */
export function bareTcp(m: KindMonitor, port: number): TcpCheckRequest {
  return { kind: 'tcp', host: m.hostname ?? '', port: m.port ?? port, timeoutSeconds: m.timeoutSeconds };
}

/** What a database check is dialled with besides its own settings. */
export const databaseTarget = (m: KindMonitor, port: number) => ({
  host: m.hostname ?? '',
  port: m.port ?? port,
  ssl: m.config.sslMode ?? 'disable',
  credentials: m.credentials,
  timeoutSeconds: m.timeoutSeconds,
});

/** The SQL kinds' check: their target and their own settings. */
export const sqlCheck = (m: KindMonitor, port: number) => ({
  ...databaseTarget(m, port),
  database: m.config.database ?? null,
  query: m.config.query ?? 'SELECT 1',
  expectedResult: m.config.expectedResult ?? null,
});
