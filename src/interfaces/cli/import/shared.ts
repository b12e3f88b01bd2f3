import { yamlText } from '../yaml-text';
import type { z } from 'zod';
import { CHANNEL_TYPES, type ChannelType } from '../../../domain/notifications/channel-config';
import { notifierOf, secretFields } from '../../../domain/notifications/notifiers';
import { TAG_COLORS } from '../../../domain/monitoring/tag';
import { envName, envRef } from '../env-refs';
import { ChannelEntry, MaintenanceWindowEntry, MonitorEntry, StatusPageEntry, TagEntry } from '../file-schema';

/**
 * What every import source shares: a draft of the wsm file the source's records are mapped into,
 * each entry checked against the file's own schema (which follows the monitor kinds and channel
 * types the service has: a kind or type added later becomes mappable without a change here), and
 * the list of what could not be mapped, each with its reason, for stderr. Pure: the sources fetch,
 * the draft only maps.
 */

/** Header names whose values an import writes as references (as export does). */
const SENSITIVE_HEADER = /authorization|cookie|token|secret|api-?key|password/i;

/** A reference the file needs: the variable, and where the source keeps its value. */
export interface Reference {
  readonly variable: string;
  readonly from: string;
}

export class ImportDraft {
  readonly monitors: Record<string, unknown>[] = [];
  readonly channels: Record<string, unknown>[] = [];
  readonly tags: Record<string, unknown>[] = [];
  readonly windows: Record<string, unknown>[] = [];
  readonly pages: Record<string, unknown>[] = [];
  readonly unmapped: string[] = [];
  readonly notes: string[] = [];
  readonly references: Reference[] = [];

  /** Something of the source left out of the file, and why. */
  skip(what: string, reason: string): void {
    this.unmapped.push(`${what}: ${reason}`);
  }

  /** A monitor entry, if the file's schema takes it; otherwise listed as unmapped with the schema's words. */
  monitor(what: string, entry: Record<string, unknown>): boolean {
    return this.add(what, entry, MonitorEntry, this.monitors);
  }

  tag(name: string, color: string): void {
    if (this.tags.some((t) => String(t.name).toLowerCase() === name.toLowerCase())) return;
    this.add(`tag ${name}`, { name: name.trim().slice(0, 50), color: nearestColor(color) }, TagEntry, this.tags);
  }

  window(what: string, entry: Record<string, unknown>): boolean {
    return this.add(what, entry, MaintenanceWindowEntry, this.windows);
  }

  page(what: string, entry: Record<string, unknown>): boolean {
    return this.add(what, entry, StatusPageEntry, this.pages);
  }

  /**
   * A notification channel of a type the service has (else unmapped): the config is checked with its
   * real values, then the type's secret fields (a chat webhook's URL, a token) are written as
   * references, as wsm export writes them, the variables listed with where the value is found.
   */
  channel(what: string, key: string, name: string, type: string, config: Record<string, unknown>, from: string): boolean {
    if (!(CHANNEL_TYPES as readonly string[]).includes(type)) {
      this.skip(what, `this service has no ${type} channel type`);
      return false;
    }
    const entry = { key, name: name.trim().slice(0, 200) || key, type, config };
    if (!this.valid(what, entry, ChannelEntry)) return false;
    let stored: Record<string, unknown>;
    try {
      // As the service stores it (lowercased addresses, a chat type's messagePrefix null): a plan then compares equal.
      stored = { ...notifierOf(type as ChannelType).normalize(config as never) };
    } catch (error) {
      this.skip(what, `the service would refuse its config (${(error as Error).message})`);
      return false;
    }
    const written: Record<string, unknown> = { ...stored };
    for (const field of secretFields(type as ChannelType)) {
      if (typeof written[field] !== 'string') continue;
      written[field] = this.reference([key, field.replace(/([a-z0-9])([A-Z])/g, '$1_$2')], `${from}, its ${field}`);
    }
    this.channels.push({ ...entry, config: written });
    return true;
  }

  /** Request headers, sensitive ones (Authorization, tokens) as references. */
  headers(key: string, headers: Record<string, string>, from: string): Record<string, string> {
    return Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [
        name,
        SENSITIVE_HEADER.test(name) ? this.reference([key, 'HEADER', name], `${from}, its ${name} header`) : value,
      ]),
    );
  }

  /** A reference to a new variable named after the entry's key (as export names them). */
  reference(parts: string[], from: string): string {
    const variable = envName(...parts);
    if (!this.references.some((r) => r.variable === variable)) this.references.push({ variable, from });
    return envRef(variable);
  }

  private add(what: string, entry: Record<string, unknown>, schema: z.ZodType, into: Record<string, unknown>[]): boolean {
    if (!this.valid(what, entry, schema)) return false;
    into.push(entry);
    return true;
  }

  private valid(what: string, entry: Record<string, unknown>, schema: z.ZodType): boolean {
    const parsed = schema.safeParse(entry);
    if (parsed.success) return true;
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(entry)'}: ${i.message}`);
    this.skip(what, `not a valid entry here (${issues.join('; ')})`);
    return false;
  }
}

/** The file an import writes: entries in key order (an import run twice writes the same file). */
export function renderImport(draft: ImportDraft, customer: string | null, source: string): string {
  const byKey = (field: string) => (a: Record<string, unknown>, b: Record<string, unknown>) =>
    String(a[field]).localeCompare(String(b[field]));
  const content = {
    version: 1,
    ...(customer ? { customer } : {}),
    tags: [...draft.tags].sort(byKey('name')),
    notificationChannels: [...draft.channels].sort(byKey('key')),
    monitors: [...draft.monitors].sort(byKey('key')),
    maintenanceWindows: [...draft.windows].sort(byKey('key')),
    statusPages: [...draft.pages].sort(byKey('slug')),
  };
  return yamlText(content, [
    `Imported from ${source} by wsm import; review it with wsm plan.`,
    'yaml-language-server: $schema=./wsm.schema.json (write it with: wsm schema > wsm.schema.json)',
  ]);
}

/** What an import tells on stderr: each unmapped thing with its reason, the notes, the variables to set. */
export function reportImport(draft: ImportDraft): string {
  const lines: string[] = [];
  for (const u of draft.unmapped) lines.push(`wsm import: not mapped: ${u}`);
  for (const n of draft.notes) lines.push(`wsm import: note: ${n}`);
  for (const r of [...draft.references].sort((a, b) => a.variable.localeCompare(b.variable)))
    lines.push(`wsm import: set ${r.variable} before plan or apply (the value is ${r.from})`);
  const counts = `${draft.monitors.length} monitors, ${draft.channels.length} channels, ${draft.unmapped.length} not mapped`;
  lines.push(`wsm import: ${counts}`);
  return `${lines.join('\n')}\n`;
}

/**
 * An interval in seconds as the service's minutes (1 to `max`): rounded up when it is not a whole
 * number of minutes, the change noted.
 */
export function minutesOf(seconds: number, what: string, draft: ImportDraft, max = 1440): number {
  const minutes = Math.min(max, Math.max(1, Math.ceil(seconds / 60)));
  if (minutes * 60 !== seconds) draft.notes.push(`${what}: interval ${seconds} s becomes ${minutes} min (the service counts minutes)`);
  return minutes;
}

/** A timeout in seconds within the service's 1 to 60, the change noted. */
export function timeoutOf(seconds: number, what: string, draft: ImportDraft): number {
  const timeout = Math.min(60, Math.max(1, Math.round(seconds)));
  if (timeout !== seconds) draft.notes.push(`${what}: timeout ${seconds} s becomes ${timeout} s (the service takes 1 to 60 whole seconds)`);
  return timeout;
}

/** Status codes from ranges like "200-299": none for the 2xx the service expects by default; null when too many to list. */
export function statusCodes(ranges: readonly string[]): number[] | null {
  const codes = new Set<number>();
  for (const range of ranges) {
    const [from, to = from] = String(range).split('-').map(Number);
    if (!Number.isInteger(from) || !Number.isInteger(to)) return null;
    for (let code = from!; code <= to!; code += 1) codes.add(code);
  }
  const list = [...codes].sort((a, b) => a - b);
  if (list.length === 100 && list[0] === 200 && list[99] === 299) return [];
  return list.length > 50 || list.some((c) => c < 100 || c > 599) ? null : list;
}

/** The tag color of the service nearest to a #rrggbb color (the service has a fixed palette). */
export function nearestColor(color: string): string {
  const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  if (!/^#[0-9a-f]{6}$/i.test(color)) return TAG_COLORS[0];
  const [r, g, b] = rgb(color);
  const distance = (c: string) => {
    const [r2, g2, b2] = rgb(c);
    return (r! - r2!) ** 2 + (g! - g2!) ** 2 + (b! - b2!) ** 2;
  };
  return [...TAG_COLORS].reduce((best, c) => (distance(c) < distance(best) ? c : best));
}

/** host and port of a URL or a bare host ("host", "host:port"); null when it is neither. */
export function hostOf(target: string): { host: string; port: number | null } | null {
  const text = target.trim();
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `tcp://${text}`);
    if (!url.hostname) return null;
    return { host: url.hostname.replace(/^\[|\]$/g, ''), port: url.port ? Number(url.port) : null };
  } catch {
    return null;
  }
}
