/** The tables the audit log's migration put triggers on, as they were then (a later change is a migration of its own). */
/** How a table's rows are audited (the arguments of audit_row, in its order). */
export interface AuditedTable {
  table: string;
  resourceType: string;
  secrets?: string[];
  ignored?: string[];
  idColumn?: string;
  customerColumn?: string;
  /** A part of another resource: its changes are listed under the parent's entry. */
  partOf?: { table: string; column: string; resourceType: string; key: string; idColumn?: string; customerColumn?: string };
}

/**
 * Every table users change through the API. Tables the service alone writes (results, schedules,
 * deliveries, outbox, counters, sessions) and tables that are logs themselves (incident timelines)
 * are not audited; sign-ins are entries of their own (SqlAuditTrail).
 */
export const AUDITED_TABLES: readonly AuditedTable[] = [
  { table: 'organizations', resourceType: 'organization', ignored: ['vat_validation'], idColumn: 'public_id', customerColumn: '-' },
  { table: 'customers', resourceType: 'customer', customerColumn: 'id' },
  {
    table: 'users',
    resourceType: 'user',
    idColumn: 'id',
    secrets: ['password_hash', 'totp_secret', 'backup_code_hashes'],
    ignored: ['mfa_failed_attempts', 'mfa_locked_until', 'last_sign_in_at'],
  },
  { table: 'api_tokens', resourceType: 'apiToken', idColumn: 'id', secrets: ['token_hash'], ignored: ['last_used_at'] },
  {
    table: 'agent_registrations',
    resourceType: 'agentRegistration',
    idColumn: 'id',
    secrets: ['claim_token_hash', 'user_code_hash'],
    ignored: ['last_polled_at'],
  },
  { table: 'agent_access_tokens', resourceType: 'agentToken', idColumn: 'id', secrets: ['token_hash'] },
  { table: 'account_deletion_requests', resourceType: 'accountDeletionRequest', idColumn: 'id', customerColumn: '-' },
  { table: 'package_configs', resourceType: 'packageConfig', customerColumn: '-' },
  { table: 'custom_fields', resourceType: 'customField', customerColumn: '-' },
  { table: 'customer_domains', resourceType: 'customerDomain' },
  { table: 'customer_ips', resourceType: 'customerIp' },
  {
    table: 'monitors',
    resourceType: 'monitor',
    secrets: ['credentials_ciphertext', 'heartbeat_token'],
    ignored: ['document', 'last_heartbeat_at', 'check_interval_seconds'],
  },
  {
    table: 'monitor_tags',
    resourceType: 'monitorTag',
    idColumn: 'tag_id',
    partOf: { table: 'monitors', column: 'monitor_id', resourceType: 'monitor', key: 'tags' },
  },
  { table: 'tags', resourceType: 'tag' },
  { table: 'change_requests', resourceType: 'changeRequest' },
  {
    table: 'notification_channels',
    resourceType: 'notificationChannel',
    secrets: ['secret_ciphertext', 'config.url', 'config.headers', 'config.password', 'config.token', 'config.apiKey'],
    ignored: ['consecutive_failures', 'last_failure_at', 'last_failure_reason', 'last_success_at', 'failing_since'],
  },
  {
    table: 'organization_smtp',
    resourceType: 'organizationSmtp',
    idColumn: 'organization_id',
    customerColumn: '-',
    secrets: ['password_ciphertext'],
    ignored: ['verified_at'],
  },
  { table: 'incidents', resourceType: 'incident' },
  { table: 'maintenance_windows', resourceType: 'maintenanceWindow' },
  { table: 'status_pages', resourceType: 'statusPage', secrets: ['password_hash', 'access_secret'] },
  { table: 'status_page_incidents', resourceType: 'statusPageIncident', customerColumn: '-' },
  {
    table: 'status_page_updates',
    resourceType: 'statusPageUpdate',
    partOf: {
      table: 'status_page_incidents',
      column: 'page_incident_id',
      resourceType: 'statusPageIncident',
      key: 'updates',
      customerColumn: '-',
    },
  },
  {
    table: 'status_page_subscribers',
    resourceType: 'statusPageSubscriber',
    idColumn: 'id',
    customerColumn: '-',
    secrets: ['webhook_secret', 'token'],
  },
  { table: 'custom_domains', resourceType: 'customDomain' },
  { table: 'report_definitions', resourceType: 'report', customerColumn: '-' },
  { table: 'report_logos', resourceType: 'reportLogo', idColumn: 'organization_id', customerColumn: '-', ignored: ['bytes'] },
  {
    table: 'data_exports',
    resourceType: 'dataExport',
    idColumn: 'id',
    customerColumn: '-',
    secrets: ['download_token_hash'],
    ignored: ['rows_done', 'rows_total', 'attempts', 'lease_owner', 'lease_until', 'started_at', 'file_path', 'file_bytes'],
  },
  { table: 'im_incidents', resourceType: 'imIncident', ignored: ['occurrence_count', 'last_occurrence_at'] },
  { table: 'im_teams', resourceType: 'imTeam', idColumn: 'id', customerColumn: '-' },
  {
    table: 'im_team_members',
    resourceType: 'imTeamMember',
    idColumn: 'user_id',
    partOf: { table: 'im_teams', column: 'team_id', resourceType: 'imTeam', key: 'members', idColumn: 'id', customerColumn: '-' },
  },
  { table: 'im_schedules', resourceType: 'imSchedule', idColumn: 'id', customerColumn: '-' },
  {
    table: 'im_schedule_layers',
    resourceType: 'imScheduleLayer',
    idColumn: 'position',
    partOf: {
      table: 'im_schedules',
      column: 'schedule_id',
      resourceType: 'imSchedule',
      key: 'layers',
      idColumn: 'id',
      customerColumn: '-',
    },
  },
  {
    table: 'im_schedule_overrides',
    resourceType: 'imScheduleOverride',
    idColumn: 'id',
    partOf: {
      table: 'im_schedules',
      column: 'schedule_id',
      resourceType: 'imSchedule',
      key: 'overrides',
      idColumn: 'id',
      customerColumn: '-',
    },
  },
  { table: 'escalation_policies', resourceType: 'escalationPolicy', idColumn: 'id', customerColumn: '-' },
  {
    table: 'escalation_policy_levels',
    resourceType: 'escalationPolicyLevel',
    idColumn: 'position',
    partOf: {
      table: 'escalation_policies',
      column: 'policy_id',
      resourceType: 'escalationPolicy',
      key: 'levels',
      idColumn: 'id',
      customerColumn: '-',
    },
  },
  { table: 'im_alert_sources', resourceType: 'imAlertSource', secrets: ['token_hash'] },
  { table: 'im_calendar_feeds', resourceType: 'imCalendarFeed', idColumn: 'user_id', customerColumn: '-', secrets: ['token_hash'] },
  { table: 'im_contact_methods', resourceType: 'imContactMethod', idColumn: 'id', customerColumn: '-', secrets: ['secret_ciphertext'] },
  { table: 'im_customer_routing', resourceType: 'imCustomerRouting', idColumn: 'customer_id' },
  { table: 'im_monitor_routing', resourceType: 'imMonitorRouting', idColumn: 'monitor_id', customerColumn: '-' },
  { table: 'billing_accounts', resourceType: 'billingAccount', idColumn: 'organization_id', customerColumn: '-' },
  { table: 'billing_mandates', resourceType: 'billingMandate', idColumn: 'id', customerColumn: '-' },
  { table: 'billing_charges', resourceType: 'billingCharge', idColumn: 'id', customerColumn: '-' },
  { table: 'platform_settings', resourceType: 'platformSettings', idColumn: 'id', customerColumn: '-' },
];

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** The trigger that audits one table. */
export function auditTriggerSql(t: AuditedTable): string {
  const args = [
    t.resourceType,
    (t.secrets ?? []).join(','),
    (t.ignored ?? []).join(','),
    t.idColumn ?? '',
    t.customerColumn ?? '',
    t.partOf?.table ?? '',
    t.partOf?.column ?? '',
    t.partOf?.resourceType ?? '',
    t.partOf?.key ?? '',
    t.partOf?.idColumn ?? '',
    t.partOf?.customerColumn ?? '',
  ]
    .map(literal)
    .join(', ');
  return `CREATE TRIGGER audit AFTER INSERT OR UPDATE OR DELETE ON ${t.table} FOR EACH ROW EXECUTE FUNCTION audit_row(${args});`;
}
