import type { ActionName } from '../../../domain/identity/permissions';

/**
 * The MCP tools: each is one operation of the REST API, named by its operationId. Its input schema
 * is that route's own zod schemas (path, query and body fields side by side), and a call runs as a
 * request of the API (tool-dispatch.ts), so gates, use cases, presenters, audit and rate limits are
 * the API's. A tool adds only what an agent needs to choose it: a name, a title and when to use it.
 */
export interface ToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly operationId: string;
  /** When an agent should use the tool (the route's own description follows it). */
  readonly description: string;
  /** The body the tool always sends (pause and resume); its fields are then not arguments. */
  readonly fixedBody?: Readonly<Record<string, unknown>>;
  /** The act of the role gates (domain/identity/permissions.ts) the route's use case enforces: the tool is listed only to callers it lets take it. */
  readonly action?: ActionName;
  /** Query values used when the arguments leave them out: small pages, so results stay compact. */
  readonly defaults?: Readonly<Record<string, string>>;
}

const SMALL_PAGE = { perPage: '20' };

export const TOOL_CATALOGUE: readonly ToolDefinition[] = [
  // tools.public: any caller, agents of any scope included.
  {
    name: 'dns_lookup',
    title: 'DNS lookup',
    operationId: 'lookUpDns',
    description: 'Use to see what a domain resolves to (A, AAAA, MX, TXT, ...), for instance to explain a failing check.',
  },
  {
    name: 'ssl_certificate',
    title: 'TLS certificate',
    operationId: 'inspectSslCertificate',
    description: "Use to check a host's TLS certificate: validity, chain, issuer and days until it expires.",
  },
  {
    name: 'port_check',
    title: 'TCP port check',
    operationId: 'checkPort',
    description: 'Use to learn whether a host accepts TCP connections on a port (a service up or firewalled).',
  },
  {
    name: 'blocklist_lookup',
    title: 'DNS blocklist lookup',
    operationId: 'lookUpDnsbl',
    description: 'Use to learn whether an IP address is listed on DNS blocklists (mail delivery problems).',
  },
  {
    name: 'domain_expiry',
    title: 'Domain expiry',
    operationId: 'lookUpDomainExpiry',
    description: 'Use to learn when a domain registration expires and who the registrar is.',
  },
  // api.read: monitors and incidents.
  {
    name: 'find_monitors',
    title: 'Find monitors',
    operationId: 'listWebsites',
    description:
      'Use first to find monitors (websites, heartbeats, browser scenarios) by name or URL (search), customer, status or tag. ' +
      'Paged: total says how many match; ask for the next page rather than a larger one.',
    defaults: SMALL_PAGE,
  },
  {
    name: 'get_monitor',
    title: 'Monitor state',
    operationId: 'getWebsite',
    description: "Use to read one monitor's configuration and current state (up, down, unknown and why) by its id from find_monitors.",
  },
  {
    name: 'get_monitor_uptime',
    title: 'Monitor uptime',
    operationId: 'getWebsiteUptimeStats',
    description: "Use to report a monitor's uptime over a period (24h, 7d, 30d, ...) or a from/to range.",
  },
  {
    name: 'get_recent_checks',
    title: 'Recent checks with evidence',
    operationId: 'getWebsiteCheckHistory',
    description:
      "Use to see a monitor's latest check results, newest first, with each result's reason, findings, timings and evidence " +
      '(what the check saw): the way to explain why a monitor is down.',
    defaults: { perPage: '10' },
  },
  {
    name: 'list_incidents',
    title: 'Incidents',
    operationId: 'listIncidents',
    description: 'Use to find incidents: status=open for what is down now, monitorId for one monitor, from/to for a period.',
    defaults: SMALL_PAGE,
  },
  {
    name: 'get_incident',
    title: 'Incident and its timeline',
    operationId: 'getIncident',
    description: 'Use to read one incident with its timeline (opened, each location report, reminders, acknowledged, resolved).',
  },
  // Beyond api.read: organization and customer API tokens (agent tokens are refused: agentTokenReadOnly).
  {
    name: 'who_is_on_call',
    title: 'Who is on call',
    operationId: 'getImOnCall',
    description: 'Use to learn who is on call now (or at a given time), per schedule or team, before paging someone.',
  },
  {
    name: 'list_status_pages',
    title: 'Status pages',
    operationId: 'listStatusPages',
    description: 'Use to find the status pages and what they show.',
    defaults: SMALL_PAGE,
  },
  {
    name: 'list_maintenance_windows',
    title: 'Maintenance windows',
    operationId: 'listMaintenanceWindows',
    description: 'Use to learn whether a monitor is in (or has) planned maintenance; websiteId narrows to one monitor.',
    defaults: SMALL_PAGE,
  },
  {
    name: 'list_customers',
    title: 'Customers',
    operationId: 'listCustomers',
    description: "Use to find the organization's customers (a customer-scoped caller sees its own customer only).",
  },
  // Writes: agent tokens need the platform's agent writes switched on and the matching write scope.
  {
    name: 'acknowledge_incident',
    title: 'Acknowledge an incident',
    operationId: 'acknowledgeIncident',
    action: 'incident.acknowledge',
    description: 'Use when someone is taking care of an open incident: reminders stop. Needs api.write.incidents for agents.',
  },
  {
    name: 'resolve_incident',
    title: 'Resolve a manual incident',
    operationId: 'resolveIncident',
    action: 'incident.resolve',
    description: 'Use to close a manual incident (automatic ones resolve when the monitor recovers). Needs api.write.incidents for agents.',
  },
  {
    name: 'schedule_maintenance',
    title: 'Schedule a maintenance window',
    operationId: 'createMaintenanceWindow',
    action: 'maintenanceWindow.create',
    description: 'Use before planned work so no incident opens for the targets during it. Needs api.write.monitors for agents.',
  },
  {
    name: 'trigger_check',
    title: 'Run a check now',
    operationId: 'triggerWebsiteCheck',
    action: 'monitor.check',
    description: 'Use to re-check a monitor now (after a fix) instead of waiting for its interval. Needs api.write.monitors for agents.',
  },
  {
    name: 'pause_monitor',
    title: 'Pause a monitor',
    operationId: 'updateWebsite',
    action: 'monitor.update',
    description: 'Use to stop checking a monitor (no checks, no incidents) until it is resumed. Needs api.write.monitors for agents.',
    fixedBody: { status: 'paused' },
  },
  {
    name: 'resume_monitor',
    title: 'Resume a monitor',
    operationId: 'updateWebsite',
    action: 'monitor.update',
    description: 'Use to start checking a paused monitor again. Needs api.write.monitors for agents.',
    fixedBody: { status: 'active' },
  },
];
