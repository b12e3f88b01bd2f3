import type { MonitorKindDescriptor } from './kind';
import { bareTcp, sqlCheck, SQL_FIELDS } from './database';

const PORT = 5432;

/** A PostgreSQL server: log in (TLS by sslMode) to a database, run a query, compare its first value. */
export const postgres = {
  type: 'postgres',
  label: 'PostgreSQL',
  summary: 'A PostgreSQL database answering a query',
  notes:
    'PostgreSQL: checkMode protocol (default) or tcp. Default port 5432. In protocol mode logs in with credentials (without: as postgres, no password; sslMode: disable, require, ' +
    'verify-full) to database, runs query (default SELECT 1); with expectedResult the first column of the first row, as text, must equal it.',
  hostname: 'any',
  port: 'protocol',
  service: { secret: 'password' },
  fields: SQL_FIELDS,
  defaultPort: () => PORT,
  checkRequest: (m) => (m.checkMode === 'tcp' ? bareTcp(m, PORT) : { kind: 'postgres', ...sqlCheck(m, PORT) }),
  sample: {
    hostname: 'db.example.com',
    database: 'shop',
    query: 'SELECT 1',
    expectedResult: '1',
    sslMode: 'require',
    credentials: { username: 'monitor', password: 's3cret' },
  },
} as const satisfies MonitorKindDescriptor<'postgres'>;
