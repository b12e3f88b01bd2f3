import { dns } from './dns';
import { ftp } from './ftp';
import { grpc } from './grpc';
import { icmp } from './icmp';
import { mqtt } from './mqtt';
import { imapPop } from './imap-pop';
import type { KindField, MonitorKindDescriptor } from './kind';
import { smtp } from './smtp';
import { snmp } from './snmp';
import { ssh } from './ssh';
import { tcp } from './tcp';
import { udp } from './udp';
import { redis } from './redis';
import { postgres } from './postgres';
import { mysql } from './mysql';
import { websocket } from './websocket';

/** THE list of monitor kinds under /api/monitors/{type}, one descriptor file each; its order is the API's. */
export const MONITOR_KIND_DESCRIPTORS = [
  dns,
  icmp,
  tcp,
  udp,
  smtp,
  ssh,
  ftp,
  imapPop,
  redis,
  postgres,
  mysql,
  websocket,
  grpc,
  mqtt,
  snmp,
] as const;

type Kinds = typeof MONITOR_KIND_DESCRIPTORS;
type TypesOf<T extends readonly MonitorKindDescriptor[]> = {
  readonly [K in keyof T]: T[K] extends MonitorKindDescriptor<infer N> ? N : never;
};

/** The {type} segments of /api/monitors/{type}. */
export const PER_KIND_TYPES = MONITOR_KIND_DESCRIPTORS.map((k) => k.type) as unknown as TypesOf<Kinds>;
export type PerKindType = Kinds[number]['type'];

const BY_TYPE: ReadonlyMap<string, MonitorKindDescriptor<PerKindType>> = new Map(MONITOR_KIND_DESCRIPTORS.map((k) => [k.type, k]));

export const isPerKindType = (value: unknown): value is PerKindType => typeof value === 'string' && BY_TYPE.has(value);

/** The descriptor of a per-kind type. */
export function kindOf(type: PerKindType): MonitorKindDescriptor<PerKindType> {
  const found = BY_TYPE.get(type);
  if (!found) throw new Error(`No descriptor for monitor kind ${String(type)}`);
  return found;
}

/** The descriptor of a monitor kind, or undefined for websites (their types are not per-kind). */
export const kindDescriptor = (kind: string): MonitorKindDescriptor<PerKindType> | undefined => BY_TYPE.get(kind);

/** Every own setting of every kind, each once (the same name means the same field: tlsMode). */
export function allKindFields(): KindField[] {
  const seen = new Map<string, KindField>();
  for (const kind of MONITOR_KIND_DESCRIPTORS as readonly MonitorKindDescriptor[]) {
    for (const field of kind.fields) if (!seen.has(field.name)) seen.set(field.name, field);
  }
  return [...seen.values()];
}

export type { KindField, KindFieldInput, KindMonitor, MonitorKindDescriptor, ServiceLogin } from './kind';
