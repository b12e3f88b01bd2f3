import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import { kindDescriptor, PER_KIND_TYPES } from '../../domain/monitoring/kinds';
import { CHANNEL_TYPES, type ChannelType } from '../../domain/notifications/channel-config';
import { secretFields } from '../../domain/notifications/notifiers';
import { monitorBodies } from '../http/monitoring/monitor.schemas';
import { WebsiteCreateBody } from '../http/monitoring/website.schemas';
import type { ApiRecord } from './api-client';
import { envName, envRef } from './env-refs';
import type { ChannelEntry, MonitorEntry, TagEntry } from './file-schema';
import { shapedObject } from './shaped';

/**
 * The resources plan and apply compare, one shape for the file's side and the service's: a type,
 * a key, the customer it belongs to (publicId; null: organization-wide) and its fields as the file
 * writes them. The service's records are projected onto the file's fields here, once.
 */
export type ResourceType = 'tag' | 'channel' | 'customField' | 'monitor' | 'maintenanceWindow' | 'statusPage';

export interface Resource {
  readonly type: ResourceType;
  /** Monitors: the key (or publicId); tags: the name. */
  readonly key: string;
  /** Monitors: website, dns, ...; tags: 'tag'. */
  readonly kind: string;
  readonly customer: string | null;
  readonly fields: Readonly<Record<string, unknown>>;
}

/**
 * The file's side: where the entry is, for messages. Worked out on demand (`file:line`): finding a
 * line parses the file again with positions, which only a message needs.
 */
export interface Desired extends Resource {
  readonly where: () => string;
  /** `file:line` of one of its fields (the entry's line when the field is not written). */
  readonly whereField: (field: string) => string;
}

/** The service's side: its publicId, and the other key it answers to (a monitor's publicId). */
export interface Actual extends Resource {
  readonly id: string;
}

/** What a write-only field holds on the service: set (never its value) or not. */
export const STORED_SECRET = '(secret)';

/** Fields the service never returns: compared by whether they are set (a status page's password too). */
export const WRITE_ONLY = new Set(['credentials', 'secrets', 'password']);

/** Fields of an entry that are no monitor setting. */
export const IDENTITY_FIELDS = new Set(['key', 'kind', 'customer']);

/** Header names whose values export writes as references. */
const SENSITIVE_HEADER = /authorization|cookie|token|secret|api-?key|password/i;

const bodyOf = (kind: string): z.ZodObject => (kind === 'website' ? WebsiteCreateBody : monitorBodies(kind as never).create);
export const MONITOR_KINDS_LISTED = ['website', ...PER_KIND_TYPES] as const;

/** Per kind, the create-body fields a record is projected onto, and whether each takes null (computed once). */
const projections = new Map<string, ReadonlyArray<readonly [string, boolean]>>();
function projectionOf(kind: string): ReadonlyArray<readonly [string, boolean]> {
  let fields = projections.get(kind);
  if (!fields) {
    fields = Object.entries(bodyOf(kind).shape as Record<string, z.ZodType>)
      .filter(([field]) => !STEERING_FIELDS.has(field) && !WRITE_ONLY.has(field))
      .map(([field, schema]) => [field, schema.safeParse(null).success] as const);
    projections.set(kind, fields);
  }
  return fields;
}

/** Create-body fields that steer a call rather than describe the monitor. */
const STEERING_FIELDS = new Set(['customerId', 'allowPaidQuotaUpgrade', 'heartbeatToken', 'key']);

/** The file fields of a monitor record: each create-body field the record has (a null only where the body takes null). */
export function monitorFromRecord(kind: string, record: ApiRecord): Actual {
  const keys: string[] = [];
  const values: unknown[] = [];
  for (const [field, takesNull] of projectionOf(kind)) {
    const value = record[field];
    if (value === undefined || (value === null && !takesNull)) continue;
    keys.push(field);
    values.push(value);
  }
  if (record.hasCredentials === true) put(keys, values, 'credentials', STORED_SECRET);
  const names: string[] = record.secretNames ?? [];
  if (names.length > 0) put(keys, values, 'secrets', Object.fromEntries(names.map((n) => [n, STORED_SECRET])));
  put(keys, values, 'tags', tagNames(record.tags ?? []));
  const fields = shapedObject(keys, values);
  return { type: 'monitor', key: record.key ?? record.publicId, kind, customer: record.customerPublicId, fields, id: record.publicId };
}

/** A field set as an assignment sets it: in its place when the keys have it, else last. */
function put(keys: string[], values: unknown[], field: string, value: unknown): void {
  const at = keys.indexOf(field);
  if (at === -1) {
    keys.push(field);
    values.push(value);
  } else values[at] = value;
}

/** Tag names sorted by their lower-case form (each lowered once, not in every comparison). */
export function tagNames(tags: ReadonlyArray<{ name: string }>): string[] {
  if (tags.length < 2) return tags.map((t) => t.name);
  return tags
    .map((t) => ({ name: t.name, lower: t.name.toLowerCase() }))
    .sort((a, b) => a.lower.localeCompare(b.lower))
    .map((t) => t.name);
}

/** A tag record, its customer's integer id turned into the publicId through `customers`. */
export function tagFromRecord(record: ApiRecord, customers: ReadonlyMap<number, string>): Actual {
  const customer = record.customerId === null ? null : (customers.get(record.customerId) ?? String(record.customerId));
  return { type: 'tag', key: record.name, kind: 'tag', customer, fields: { color: record.color }, id: record.publicId };
}

/** A monitor entry of the file over its kind's defaults, its customer defaulting to the file's. */
export function monitorFromEntry(
  entry: MonitorEntry,
  fileCustomer: string | null,
  where: () => string,
  whereField = (_f: string) => where(),
  defaults: Readonly<Record<string, unknown>> = {},
): Desired {
  const { key, kind, customer, ...own } = entry as MonitorEntry & Record<string, unknown>;
  // The defaults' fields in their order, the entry's own values over them, then the entry's other fields.
  const keys = Object.keys(defaults);
  const values = keys.map((field) => (Object.hasOwn(own, field) ? own[field] : defaults[field]));
  for (const field of Object.keys(own))
    if (!Object.hasOwn(defaults, field)) {
      keys.push(field);
      values.push(own[field]);
    }
  const tags = keys.indexOf('tags');
  if (tags !== -1 && values[tags] !== undefined) values[tags] = tagNames((values[tags] as string[]).map((name) => ({ name })));
  return { type: 'monitor', key, kind, customer: customer ?? fileCustomer, fields: shapedObject(keys, values), where, whereField };
}

export function tagFromEntry(
  entry: TagEntry,
  fileCustomer: string | null,
  where: () => string,
  whereField = (_f: string) => where(),
): Desired {
  const customer = entry.customer ?? fileCustomer;
  return { type: 'tag', key: entry.name, kind: 'tag', customer, fields: { color: entry.color }, where, whereField };
}

/** The file entry export writes for a service monitor: secrets as references, never values. */
export function entryOfMonitor(
  actual: Actual,
  fileCustomer: string | null,
  defaults: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> {
  const entry: Record<string, unknown> = { key: actual.key, kind: actual.kind };
  if (actual.customer !== fileCustomer) entry.customer = actual.customer;
  const slug = actual.key;
  for (const [field, value] of Object.entries(actual.fields)) {
    if (Object.hasOwn(defaults, field)) {
      if (isDeepStrictEqual(defaults[field], value)) continue;
    } else if (field === 'tags' && (value as string[]).length === 0) continue;
    if (field === 'credentials') {
      // The credential the kind's login carries (its descriptor says: an SSH key, a password elsewhere).
      const secret = kindDescriptor(actual.kind)?.service?.secret ?? 'password';
      const credentials: Record<string, string> = { username: envRef(envName(slug, 'USERNAME')) };
      credentials[secret] = envRef(envName(slug, secret.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()));
      entry.credentials = credentials;
    } else if (field === 'secrets') {
      entry.secrets = Object.fromEntries(Object.keys(value as object).map((name) => [name, envRef(envName(slug, 'SECRET', name))]));
    } else if (field === 'headers') {
      const headers = value as Record<string, string>;
      entry.headers = Object.fromEntries(
        Object.entries(headers).map(([name, v]) => [name, SENSITIVE_HEADER.test(name) ? envRef(envName(slug, 'HEADER', name)) : v]),
      );
    } else entry[field] = value;
  }
  return entry;
}

/** The references an export wrote (the variables a plan or apply will need). */
export function referencesIn(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (typeof value === 'string') for (const m of value.matchAll(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g)) into.add(m[1]!);
  else if (Array.isArray(value)) value.forEach((v) => referencesIn(v, into));
  else if (value !== null && typeof value === 'object') Object.values(value).forEach((v) => referencesIn(v, into));
  return into;
}

/**
 * The defaults export writes per kind: each field every monitor of the kind has, with the value
 * most of them share (more than half, of at least two monitors); write-only fields, headers and
 * names stay in their entries. Entries then omit what equals their kind's default.
 */
export function commonFields(monitors: readonly Actual[]): Record<string, Record<string, unknown>> {
  const defaults: Record<string, Record<string, unknown>> = {};
  const byKind = new Map<string, Actual[]>();
  for (const m of monitors) byKind.set(m.kind, [...(byKind.get(m.kind) ?? []), m]);
  for (const [kind, group] of byKind) {
    if (group.length < 2) continue;
    const common: Record<string, unknown> = {};
    for (const field of Object.keys(group[0]!.fields)) {
      if (WRITE_ONLY.has(field) || field === 'headers' || field === 'name') continue;
      if (!group.every((m) => Object.hasOwn(m.fields, field))) continue;
      const counts = new Map<string, number>();
      for (const m of group) {
        const text = JSON.stringify(m.fields[field]);
        counts.set(text, (counts.get(text) ?? 0) + 1);
      }
      const [text, count] = [...counts].reduce((best, next) => (next[1] > best[1] ? next : best));
      if (count * 2 > group.length) common[field] = JSON.parse(text);
    }
    if (Object.keys(common).length > 0) defaults[kind] = common;
  }
  return defaults;
}

/** The fields of a channel the file manages, as the API records them. */
const CHANNEL_FIELDS = ['name', 'type', 'config', 'events', 'enabled', 'isDefault'] as const;

/**
 * The config fields of a channel type that are credentials themselves (a chat webhook's URL: whoever
 * has it can post; an API key): export writes them as references. The fields each notifier marks
 * `secret` (src/domain/notifications/notifiers/); none for a type it does not know.
 */
const secretsOf = (type: string): string[] =>
  (CHANNEL_TYPES as readonly string[]).includes(type) ? secretFields(type as ChannelType) : [];

/** Whether a channel type's URL is its secret (secretsOf). */
export const urlIsSecret = (type: string): boolean => secretsOf(type).includes('url');

/** A config field's part of its reference's name: url URL, apiKey API_KEY. */
const envPart = (field: string) => field.replace(/([a-z0-9])([A-Z])/g, '$1_$2');

/** An organization or customer channel (monitor overrides are not managed: null). */
export function channelFromRecord(record: ApiRecord, customers: ReadonlyMap<number, string>): Actual | null {
  if (record.websiteId !== null && record.websiteId !== undefined) return null;
  const customer = record.customerId === null ? null : (customers.get(record.customerId) ?? String(record.customerId));
  const fields = Object.fromEntries(CHANNEL_FIELDS.map((f) => [f, record[f]]));
  return { type: 'channel', key: record.key ?? record.publicId, kind: record.type, customer, fields, id: record.publicId };
}

export function channelFromEntry(
  entry: ChannelEntry,
  fileCustomer: string | null,
  where: () => string,
  whereField = (_f: string) => where(),
): Desired {
  const { key, customer, ...fields } = entry as ChannelEntry & Record<string, unknown>;
  return { type: 'channel', key, kind: String(fields.type), customer: customer ?? fileCustomer, fields, where, whereField };
}

/** The file entry export writes for a channel: its secret fields (a chat channel's URL) and sensitive webhook headers as references. */
export function entryOfChannel(actual: Actual, fileCustomer: string | null): Record<string, unknown> {
  const entry: Record<string, unknown> = { key: actual.key };
  if (actual.customer !== fileCustomer) entry.customer = actual.customer;
  const config = { ...(actual.fields.config as Record<string, unknown>) };
  for (const field of secretsOf(actual.kind))
    if (typeof config[field] === 'string') config[field] = envRef(envName(actual.key, envPart(field)));
  if (config.headers)
    config.headers = Object.fromEntries(
      Object.entries(config.headers as Record<string, string>).map(([name, v]) => [
        name,
        SENSITIVE_HEADER.test(name) ? envRef(envName(actual.key, 'HEADER', name)) : v,
      ]),
    );
  return { ...entry, ...actual.fields, config };
}
