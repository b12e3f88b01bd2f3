import { AppError } from '../shared/app-error';
import type { ImSeverity } from './im-incident';
import type { AlertSourceKind, GenericMapping } from './alert-source';

/** One alert of a payload, as an event: grouped payloads fan out into one of these per alert. */
export interface NormalizedAlert {
  readonly action: 'trigger' | 'acknowledge' | 'resolve';
  /** The alert's own identity (Alertmanager and Grafana: its fingerprint); null when the payload has none. */
  readonly key: string | null;
  readonly summary: string;
  readonly severity: ImSeverity;
  readonly source: string | null;
  readonly details: Readonly<Record<string, unknown>>;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : typeof value === 'number' ? String(value) : null;

const invalid = (message: string) =>
  new AppError('validationFailed', { issues: [{ path: [], message, code: 'custom' }] }, 'Validation failed');

const SEVERITY_WORDS: Record<string, ImSeverity> = {
  critical: 'critical',
  crit: 'critical',
  page: 'critical',
  high: 'critical',
  p1: 'critical',
  fatal: 'critical',
  emergency: 'critical',
  error: 'error',
  err: 'error',
  major: 'error',
  p2: 'error',
  warning: 'warning',
  warn: 'warning',
  minor: 'warning',
  medium: 'warning',
  p3: 'warning',
  info: 'info',
  informational: 'info',
  low: 'info',
  none: 'info',
  p4: 'info',
  p5: 'info',
};

/** A severity word as monitoring tools spell it; unknown or missing ones count as critical (better paged than missed). */
export const severityOf = (value: unknown): ImSeverity => SEVERITY_WORDS[(text(value) ?? '').toLowerCase()] ?? 'critical';

/**
 * Alertmanager (webhook version 4) and Grafana alerting (version 1) share the grouped shape: one
 * notification carries several alerts, each `firing` or `resolved` with its fingerprint. Each alert
 * becomes its own event, keyed by fingerprint, whatever the group's status says.
 */
function groupedAlerts(body: unknown, tool: string): NormalizedAlert[] {
  if (!isObject(body) || !Array.isArray(body.alerts)) throw invalid(`Not a ${tool} webhook payload: no alerts list`);
  return body.alerts.map((alert, index) => {
    if (!isObject(alert)) throw invalid(`alerts[${index}] is not an object`);
    const labels = isObject(alert.labels) ? alert.labels : {};
    const annotations = isObject(alert.annotations) ? alert.annotations : {};
    const status = text(alert.status);
    if (status !== 'firing' && status !== 'resolved') throw invalid(`alerts[${index}].status must be firing or resolved`);
    const summary = text(annotations.summary) ?? text(labels.alertname) ?? text(annotations.description) ?? `${tool} alert`;
    return {
      action: status === 'resolved' ? ('resolve' as const) : ('trigger' as const),
      key: text(alert.fingerprint),
      summary: summary.slice(0, 1024),
      severity: severityOf(labels.severity),
      source: text(labels.instance) ?? text(labels.job) ?? text(body.externalURL),
      details: {
        tool,
        labels,
        annotations,
        startsAt: alert.startsAt,
        endsAt: alert.endsAt,
        generatorURL: alert.generatorURL,
        groupKey: body.groupKey,
        receiver: body.receiver,
      },
    };
  });
}

/** A dot path into a JSON value (`alert.labels.host`). */
export function valueAt(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split('.')) {
    if (!isObject(current)) return undefined;
    current = current[part];
  }
  return current;
}

function genericAlerts(body: unknown, mapping: GenericMapping): NormalizedAlert[] {
  const items = Array.isArray(body) ? body : [body];
  if (items.length === 0) throw invalid('An empty list holds no alert');
  return items.map((item, index) => {
    if (!isObject(item)) throw invalid(`Alert ${index} is not an object`);
    const status = (text(valueAt(item, mapping.status)) ?? '').toLowerCase();
    const action = mapping.resolvedValues.includes(status)
      ? ('resolve' as const)
      : mapping.acknowledgedValues.includes(status)
        ? ('acknowledge' as const)
        : ('trigger' as const);
    const key = text(valueAt(item, mapping.dedupKey));
    if (action !== 'trigger' && key === null) throw invalid(`Alert ${index}: ${action} needs ${mapping.dedupKey}`);
    const summary = text(valueAt(item, mapping.summary));
    if (action === 'trigger' && summary === null) throw invalid(`Alert ${index}: no summary at ${mapping.summary}`);
    return {
      action,
      key,
      summary: (summary ?? key ?? 'alert').slice(0, 1024),
      severity: severityOf(valueAt(item, mapping.severity)),
      source: text(valueAt(item, mapping.source)),
      details: { tool: 'generic', alert: item },
    };
  });
}

/** The alerts a payload carries, by the source's kind. Throws validationFailed for payloads of another shape. */
export function alertsOf(kind: AlertSourceKind, body: unknown, mapping: GenericMapping): NormalizedAlert[] {
  if (kind === 'alertmanager') return groupedAlerts(body, 'alertmanager');
  if (kind === 'grafana') return groupedAlerts(body, 'grafana');
  return genericAlerts(body, mapping);
}
