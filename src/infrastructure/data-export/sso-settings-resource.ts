import type { ExportResource } from './export-resource';
import { sql } from '../persistence/sql';

/** The organization's single sign-on provider (one row at most), its sealed client secret left out. */
export const ssoSettingsResource: ExportResource = {
  name: 'sso-settings',
  description: 'Single sign-on: the OpenID Connect provider, allowed domains, roles and enforcement (client secret left out)',
  leftOut: [{ field: 'client_secret_ciphertext', how: 'left out' }],
  async count(runner, organizationId) {
    const [row] = await runner.query<{ n: string }>(
      sql`SELECT count(*) AS n FROM sso_connections WHERE organization_id = ${organizationId}`,
    );
    return Number(row?.n ?? 0);
  },
  async page(runner, organizationId, after) {
    if (after !== null) return { rows: [], next: null };
    const rows = await runner.query<{ row: unknown }>(
      sql`SELECT to_jsonb(t) - 'client_secret_ciphertext' AS row FROM sso_connections t WHERE organization_id = ${organizationId}`,
    );
    return { rows: rows.map((r) => r.row), next: null };
  },
};
