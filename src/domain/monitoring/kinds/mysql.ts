import type { MonitorKindDescriptor } from './kind';
import { bareTcp, sqlCheck, SQL_FIELDS } from './database';

const PORT = 3306;

/** A MySQL or MariaDB server: log in (TLS by sslMode), run a query, compare its first value. */
export const mysql = {
  type: 'mysql',
  label: 'MySQL / MariaDB',
  summary: 'A MySQL or MariaDB database answering a query',
  notes:
    'MySQL and MariaDB: checkMode protocol (default) or tcp. Default port 3306. In protocol mode logs in with credentials (without: as the anonymous user; sslMode: disable, ' +
    'require, verify-full), to database when set, runs query (default SELECT 1); with expectedResult the first column of the first row, as text, must equal it.',
  hostname: 'any',
  port: 'protocol',
  service: { secret: 'password' },
  fields: SQL_FIELDS,
  defaultPort: () => PORT,
  checkRequest: (m) => (m.checkMode === 'tcp' ? bareTcp(m, PORT) : { kind: 'mysql', ...sqlCheck(m, PORT) }),
  sample: {
    hostname: 'db.example.com',
    database: 'shop',
    query: 'SELECT COUNT(*) FROM orders',
    sslMode: 'require',
    credentials: { username: 'monitor', password: 's3cret' },
  },
} as const satisfies MonitorKindDescriptor<'mysql'>;
