import type { MonitorKindDescriptor } from './kind';

const PACKETS = 3;
const MAX_LOSS_PERCENT = 34;

/** A host answering ping: three echo requests, down when more than one is lost. */
export const icmp = {
  type: 'icmp',
  label: 'Ping (ICMP)',
  summary: 'A host answering ping',
  notes: 'ICMP: pings hostname.',
  hostname: 'any',
  port: 'none',
  fields: [],
  defaultPort: () => null,
  checkRequest: (m) => ({
    kind: 'icmp',
    host: m.hostname ?? '',
    packets: PACKETS,
    maxPacketLossPercent: MAX_LOSS_PERCENT,
    maxRttMs: null,
    timeoutSeconds: m.timeoutSeconds,
  }),
  sample: { hostname: 'gateway.example.com' },
} as const satisfies MonitorKindDescriptor<'icmp'>;
