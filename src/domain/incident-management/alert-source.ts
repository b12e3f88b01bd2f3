/** What an alert source receives: a JSON shape of our own mapping, or a monitoring tool's webhook. */
export const ALERT_SOURCE_KINDS = ['generic', 'alertmanager', 'grafana'] as const;
export type AlertSourceKind = (typeof ALERT_SOURCE_KINDS)[number];

/**
 * Where a generic payload keeps each part of an alert, as dot paths into the JSON (an array body is
 * one alert per element). Values of the status field listed in resolvedValues resolve, those in
 * acknowledgedValues acknowledge; anything else triggers.
 */
export interface GenericMapping {
  readonly dedupKey: string;
  readonly summary: string;
  readonly severity: string;
  readonly status: string;
  readonly source: string;
  readonly resolvedValues: readonly string[];
  readonly acknowledgedValues: readonly string[];
}

export const DEFAULT_GENERIC_MAPPING: GenericMapping = {
  dedupKey: 'dedup_key',
  summary: 'summary',
  severity: 'severity',
  status: 'status',
  source: 'source',
  resolvedValues: ['resolved', 'ok'],
  acknowledgedValues: ['acknowledged'],
};

export interface AlertRouting {
  readonly teamId: string | null;
  readonly escalationPolicyId: string | null;
  readonly customerId: number | null;
}

/**
 * A place monitoring tools post alerts to: POST /api/im/ingest/{token}. Only the token's digest is
 * kept (the token itself is answered once, at creation); tokenHint is its last 4 characters.
 */
export class AlertSource {
  id!: number;
  publicId: string;
  organizationId: number;
  name: string;
  kind: AlertSourceKind;
  mapping: GenericMapping;
  routing: AlertRouting;
  tokenHash: string;
  tokenHint: string;
  createdByUserId: string | null;
  createdAt: Date;
  updatedAt: Date;
  version = 1;

  constructor(props: {
    publicId: string;
    organizationId: number;
    name: string;
    kind: AlertSourceKind;
    mapping?: GenericMapping;
    routing: AlertRouting;
    tokenHash: string;
    tokenHint: string;
    createdByUserId: string | null;
    now: Date;
  }) {
    this.publicId = props.publicId;
    this.organizationId = props.organizationId;
    this.name = props.name;
    this.kind = props.kind;
    this.mapping = props.mapping ?? DEFAULT_GENERIC_MAPPING;
    this.routing = props.routing;
    this.tokenHash = props.tokenHash;
    this.tokenHint = props.tokenHint;
    this.createdByUserId = props.createdByUserId;
    this.createdAt = props.now;
    this.updatedAt = props.now;
  }

  /** A change of its name, payload mapping or routing (each optional), stamped with its time. */
  change(change: { name?: string; mapping?: GenericMapping; routing?: AlertRouting }, now: Date): void {
    if (change.name !== undefined) this.name = change.name;
    if (change.mapping !== undefined) this.mapping = change.mapping;
    if (change.routing !== undefined) this.routing = change.routing;
    this.updatedAt = now;
  }

  /** The dedup key of one of its alerts: namespaced by the source, so two sources never share an incident by accident. */
  dedupKeyFor(alertKey: string): string {
    return `${this.publicId}:${alertKey}`;
  }
}
