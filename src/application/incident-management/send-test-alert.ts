import type { AlertSource } from '../../domain/incident-management/alert-source';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { AlertSourceRepository } from './ports';
import type { IngestAlertPayload } from './ingest-alert-payload';
import type { ProcessedImEvent } from './im-event';
import { findAlertSource } from './manage-alert-sources';

/** A firing sample in the source's own payload shape, so it exercises the source's parsing and mapping. */
export function sampleAlertPayload(source: AlertSource, now: Date): unknown {
  const fingerprint = `test-${now.getTime().toString(16)}`;
  const labels = { alertname: 'TestAlert', severity: 'info', instance: 'test-alert' };
  const annotations = { summary: `Test alert from ${source.name}` };
  const alert = {
    status: 'firing',
    labels,
    annotations,
    startsAt: now.toISOString(),
    endsAt: '0001-01-01T00:00:00Z',
    generatorURL: '',
    fingerprint,
  };
  if (source.kind === 'alertmanager') {
    return {
      receiver: 'test',
      status: 'firing',
      alerts: [alert],
      groupLabels: {},
      commonLabels: labels,
      commonAnnotations: annotations,
      externalURL: '',
      version: '4',
      groupKey: '{}:{}',
      truncatedAlerts: 0,
    };
  }
  if (source.kind === 'grafana') {
    return {
      receiver: 'test',
      status: 'firing',
      orgId: 1,
      alerts: [{ ...alert, values: {} }],
      groupLabels: {},
      commonLabels: labels,
      commonAnnotations: annotations,
      externalURL: '',
      version: '1',
      groupKey: '{}:{}',
      truncatedAlerts: 0,
      title: '[FIRING:1] TestAlert',
      state: 'alerting',
      message: annotations.summary,
    };
  }
  const item: Record<string, unknown> = {};
  const put = (path: string, value: unknown) => {
    const parts = path.split('.');
    let node = item;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[parts.at(-1)!] = value;
  };
  put(source.mapping.dedupKey, fingerprint);
  put(source.mapping.summary, annotations.summary);
  put(source.mapping.severity, 'info');
  put(source.mapping.status, 'firing');
  put(source.mapping.source, 'test-alert');
  return item;
}

/** POST /api/im/sources/{id}/test-alert: a sample payload through the same path as a real one (limits, parsing, incidents). */
export class SendTestAlert {
  constructor(
    private readonly sources: AlertSourceRepository,
    private readonly ingest: IngestAlertPayload,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, ref: string): Promise<ProcessedImEvent[]> {
    const source = await findAlertSource(this.sources, actor.scope, ref);
    const payload = sampleAlertPayload(source, this.clock.now());
    const bytes = new TextEncoder().encode(JSON.stringify(payload)).length;
    await this.ingest.admitSource(source, bytes);
    return this.ingest.ingest(source, payload, bytes);
  }
}
