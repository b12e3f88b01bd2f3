/**
 * The OpenAPI tags, in the order the reference lists them. Every operation carries exactly one of
 * them (`tags: [ApiTag]` on each route), so a generated client groups the API the same way.
 */
export const API_TAGS = [
  { name: 'Health', description: 'Whether the service and its database answer.' },
  { name: 'Authentication', description: 'Sign-up, sign-in and sign-out, the current session, and two-step verification.' },
  { name: 'Users', description: 'Users of the organization, managed by its administrators.' },
  { name: 'Account deletion', description: 'Deleting a user account, 30 days after the request, by the user or an administrator.' },
  { name: 'Organization', description: "The caller's organization, and the organizations platform staff can see." },
  { name: 'API tokens', description: 'Long-lived `wsm_` tokens: organization-wide, or scoped to one customer.' },
  { name: 'Customers', description: 'Customers of the organization: they own the monitors, domains and IPs.' },
  { name: 'Customer domains', description: 'Domains of a customer, watched for registration expiry.' },
  { name: 'Customer IPs', description: 'IP addresses of a customer, watched against DNS blocklists.' },
  { name: 'Package configs', description: 'Packages a customer can be on: quotas, prices and allowances.' },
  { name: 'Custom fields', description: 'Definitions of the extra fields customers carry.' },
  {
    name: 'Websites',
    description: 'Website monitors (http, heartbeat, scripted_browser, api_chain): checks now, results, uptime statistics, screenshots.',
  },
  { name: 'Monitors', description: 'Per-protocol monitors under /api/monitors/{type}: DNS, ICMP, TCP, SMTP, SSH, FTP, IMAP/POP.' },
  {
    name: 'Locations',
    description:
      "Where monitors are checked from: the platform's locations and the organization's private ones, their probe keys (shown once, revocable) and the live status of their probes.",
  },
  { name: 'Heartbeats', description: 'The ping URL of heartbeat monitors: no credentials, the token in the path is the secret.' },
  { name: 'Tags', description: 'Labels attached to monitors.' },
  { name: 'Change requests', description: 'Changes to monitors proposed by customer-scoped callers, decided by the organization.' },
  {
    name: 'Notification channels',
    description:
      'Where alerts go: webhooks, email, SMS and chat channels of the organization, of a customer, or overriding one for a monitor, each with the events it receives.',
  },
  { name: 'Incidents', description: 'Incidents opened by failing checks or declared by hand; acknowledging and resolving them.' },
  {
    name: 'Overview',
    description: 'Every monitor of every kind in one list with what it is now, and uptime bars: what a console shows first.',
  },
  {
    name: 'Live events',
    description: "Server-sent events of the caller's scope: monitor states, incidents and notification delivery attempts, as they commit.",
  },
  {
    name: 'IM incidents',
    description:
      'Incident management: incidents routed to teams and paged through escalation policies; acknowledging, resolving, merging, snoozing, with a timeline. Needs IM switched on for the organization and an admin, editor or responder caller.',
  },
  {
    name: 'IM ingest',
    description:
      'Incident management: events in (PagerDuty Events API v2 shape) and alert sources (generic JSON, Prometheus Alertmanager, Grafana alerting), deduplicated into incidents.',
  },
  {
    name: 'IM routing',
    description:
      "Incident management: whether the automatic incidents of a customer's monitors open IM incidents (to a team, paged through an escalation policy), with an override per monitor.",
  },
  {
    name: 'IM contact methods',
    description:
      'Incident management: how a person is paged (e-mail, SMS, webhook, a push device); every enabled method of a paged person gets the page.',
  },
  {
    name: 'Push',
    description:
      "Web Push to the console: the devices a person subscribed (RFC 8030 with VAPID, payloads encrypted per RFC 8291), and the acknowledgement a notification's action button makes with the single-use grant it carries.",
  },
  {
    name: 'Maintenance windows',
    description:
      'Planned maintenance, once or recurring (RFC 5545 RRULE in an IANA time zone): checks go on, alerts of the covered monitors are silenced, uptime may leave the time out.',
  },
  {
    name: 'Service levels',
    description:
      'Service level objectives for a website or a customer’s monitors: attainment over a rolling or calendar window from the stored results, the error budget left, burn rates, and burn-rate alerts to the notification channels.',
  },
  {
    name: 'On-call',
    description:
      "Incident management: teams with their members' imRole, on-call schedules (rotation layers in a time zone, restrictions, overrides), who is on call at any instant, and iCalendar feeds.",
  },
  { name: 'Escalation policies', description: 'Incident management: who is paged, level after level, until someone acknowledges.' },
  {
    name: 'Custom domains',
    description:
      "Hostnames of the organization: white-label hosts for its API and pages, and status page hosts. Proved by a DNS TXT record, then routed by Host; certificates are the operator's proxy's (see askCustomDomainTls).",
  },
  {
    name: 'Status pages',
    description:
      'Public status pages of the organization or of a customer: components in groups, incident updates, subscribers; and the pages themselves (HTML, JSON, Atom feed, SVG badge).',
  },
  {
    name: 'Reports',
    description:
      'Scheduled PDF reports of uptime, incidents, response times and SLA, e-mailed to their recipients; their runs and the archived PDFs.',
  },
  {
    name: 'Billing',
    description:
      "What the organization pays: customers' monitor quota tiers and automatic upgrades, the payment mandate, discounts, and customers' custom prices. Administrators only; quota tier, mandate and discount stay open while the organization is suspended.",
  },
  {
    name: 'Audit log',
    description:
      'Every change made by a user, an API token or an agent, and every sign-in: who, through which credential, what changed (secrets redacted), when, from where.',
  },
  { name: 'Tools', description: 'One-off diagnostics: DNS, TLS certificate, TCP port, blocklist and domain expiry lookups.' },
  {
    name: 'Agent access',
    description: 'How AI agents register, get claimed by a user and obtain tokens (OAuth discovery, JWKS, token endpoint).',
  },
  {
    name: 'Single sign-on',
    description:
      "An organization's OpenID Connect provider (admins), sign-in through it by e-mail domain, and the provider's back-channel logout.",
  },
  { name: 'Connected apps', description: 'OAuth apps and agents a user approved: listing, disconnecting, consenting.' },
  {
    name: 'Probe API',
    description:
      "What probes (`npm run probe` on another machine) call, with a probe key: their share of a location's checks, monitor changes, and their results, reported in batches stored exactly once.",
  },
  {
    name: 'Platform administration',
    description:
      "Platform staff only: organizations' status, platform switches, signing keys; the admins' and supporters' views of organizations, users and usage (/api/admin/**).",
  },
] as const;

export type ApiTag = (typeof API_TAGS)[number]['name'];
