/**
 * The console's catalogue: what its forms ask, taken from the descriptors the service itself runs on
 * (the console cannot import src/). Written to console/src/api/catalogue.ts (generated, not
 * committed, beside the API types of scripts/console-api-types.ts) by the console build and
 * `npm run typecheck:console`, so a descriptor's label, field or help changes the console with it.
 *
 * One section per kind of descriptor, each a list of entries {type, label, ..., fields}, mapped from
 * its descriptors by an `entryOf...` function here: `channelTypes` (the notifier descriptors,
 * NOTIFIERS) and `monitorKinds` (the monitor kind descriptors, MONITOR_KIND_DESCRIPTORS: their
 * words, target and login rules and own settings, nothing of how they check). A new section is a key
 * of `Catalogue`, its entry type in TYPES and named in SECTION_TYPES.
 */
import { writeIfChanged } from './write-if-changed';
import path from 'node:path';
import { MONITOR_KIND_DESCRIPTORS, type KindFieldInput, type MonitorKindDescriptor } from '../src/domain/monitoring/kinds';
import { NOTIFIERS } from '../src/domain/notifications/notifiers';
import type { NotifierDescriptor } from '../src/domain/notifications/notifiers/notifier';

const OUT = path.resolve(__dirname, '../console/src/api/catalogue.ts');

/** A field as a form needs it: its config name, what it is, its label and help, and the API's input. */
export interface CatalogueField {
  readonly name: string;
  readonly mark: string;
  readonly label: string;
  readonly help: string;
  readonly input: Readonly<Record<string, unknown>>;
}

/** One type a form offers: its name (the API's), its label, a line about it (optional) and its fields in order. */
export interface CatalogueEntry {
  readonly type: string;
  readonly label: string;
  readonly hint?: string;
  readonly fields: readonly CatalogueField[];
}

/** One of a monitor kind's own settings as its form needs it (the descriptor's KindField). */
export interface KindCatalogueField {
  readonly name: string;
  readonly label: string;
  readonly help?: string;
  readonly hint?: string;
  readonly input: KindFieldInput;
  readonly default?: string | readonly string[] | null;
  readonly protocolOnly?: boolean;
  readonly onlyWhen?: { readonly field: string; readonly values: readonly string[] };
}

/**
 * A monitor kind as its form needs it: its name and words (`summary`: the picker's line), what its
 * hostname is (`names`: a DNS name asked about; `any`: a host to connect to), its port rule, whether
 * it is a service with a login and a bare-port fallback, and its own settings in order.
 */
export interface MonitorKindEntry {
  readonly type: string;
  readonly label: string;
  readonly summary: string;
  readonly hostname: 'names' | 'any';
  /** The sample's hostname, shown as the form's example. */
  readonly hostnameExample: string;
  readonly port: 'none' | 'required' | 'protocol';
  readonly service?: {
    readonly secret: 'password' | 'privateKey';
    readonly tcpNeedsPort?: boolean;
    readonly noTcpFallback?: boolean;
    readonly userOnlyWhen?: { readonly field: string; readonly values: readonly string[] };
    readonly implicitUser?: string;
    readonly secretLabel?: string;
  };
  readonly fields: readonly KindCatalogueField[];
}

/** Every section of the catalogue. A new section is a key here, its entries built from its descriptors. */
export interface Catalogue {
  readonly channelTypes: readonly CatalogueEntry[];
  readonly monitorKinds: readonly MonitorKindEntry[];
}

/** The type each section's entries are checked against in the generated module. */
const SECTION_TYPES: Record<keyof Catalogue, string> = { channelTypes: 'CatalogueEntry', monitorKinds: 'MonitorKindEntry' };

/** A notifier descriptor as a catalogue entry: nothing of its behaviour (normalize, chat, sample), only its words and fields. */
export const entryOfNotifier = (n: NotifierDescriptor): CatalogueEntry => ({
  type: n.type,
  label: n.label,
  fields: n.fields.map(({ name, mark, label, help, input }) => ({ name, mark, label, help, input: { ...input } })),
});

/** A monitor kind descriptor as a catalogue entry: its words, rules and settings (with its sample's hostname as an example), nothing of its check (defaultPort, checkRequest). */
export const entryOfMonitorKind = (k: MonitorKindDescriptor): MonitorKindEntry => ({
  type: k.type,
  label: k.label,
  summary: k.summary,
  hostname: k.hostname,
  hostnameExample: String((k.sample as { hostname?: unknown }).hostname ?? ''),
  port: k.port,
  ...(k.service ? { service: { ...k.service } } : {}),
  fields: k.fields.map(({ name, label, help, hint, input, default: value, protocolOnly, onlyWhen }) => ({
    name,
    label,
    ...(help === undefined ? {} : { help }),
    ...(hint === undefined ? {} : { hint }),
    input: { ...input },
    ...(value === undefined ? {} : { default: value }),
    ...(protocolOnly ? { protocolOnly } : {}),
    ...(onlyWhen ? { onlyWhen: { field: onlyWhen.field, values: [...onlyWhen.values] } } : {}),
  })),
});

export const catalogue = (): Catalogue => ({
  channelTypes: NOTIFIERS.map(entryOfNotifier),
  monitorKinds: (MONITOR_KIND_DESCRIPTORS as readonly MonitorKindDescriptor[]).map(entryOfMonitorKind),
});

/**
 * The types the console reads the catalogue through. Their field inputs copy notifier.ts's FieldInput
 * and kinds/kind.ts's KindFieldInput: a descriptor with an input of another kind does not satisfy
 * them, so the console's typecheck fails until this text (and the form) learn it.
 */
const TYPES = `/** What a config field is: where messages go, a credential itself, or neither. */
export type FieldMark = 'target' | 'secret' | 'plain';

/** What the API takes for a field: a bounded string (null too when nullable), a list of strings, or headers. */
export type FieldInput =
  | { readonly kind: 'string'; readonly max: number; readonly nullable?: boolean }
  | { readonly kind: 'list'; readonly itemMax: number; readonly min: number; readonly max: number }
  | { readonly kind: 'headers'; readonly nameMax: number; readonly valueMax: number };

export interface CatalogueField<N extends string = string> {
  readonly name: N;
  readonly mark: FieldMark;
  readonly label: string;
  readonly help: string;
  readonly input: FieldInput;
}

export interface CatalogueEntry<T extends string = string, N extends string = string> {
  readonly type: T;
  readonly label: string;
  readonly hint?: string;
  readonly fields: readonly CatalogueField<N>[];
}

/** What the API takes for a monitor kind's own setting: one of fixed values, a bounded string (an IP address when \`address\`), a list of strings. */
export type KindFieldInput =
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  | { readonly kind: 'string'; readonly max: number; readonly nullable?: boolean; readonly address?: boolean }
  | { readonly kind: 'list'; readonly itemMax: number; readonly max: number };

/** A monitor kind's own setting: no default means the API requires it at creation; protocolOnly: not in checkMode tcp. */
export interface KindCatalogueField<N extends string = string> {
  readonly name: N;
  readonly label: string;
  readonly help?: string;
  readonly hint?: string;
  readonly input: KindFieldInput;
  readonly default?: string | readonly string[] | null;
  readonly protocolOnly?: boolean;
  readonly onlyWhen?: { readonly field: N; readonly values: readonly string[] };
}

/** A monitor kind: hostname 'names' (a DNS name asked about) or 'any' (a host to connect to); port 'none', 'required' or 'protocol' (optional). */
export interface MonitorKindEntry<T extends string = string, N extends string = string> {
  readonly type: T;
  readonly label: string;
  readonly summary: string;
  readonly hostname: 'names' | 'any';
  /** The sample's hostname, shown as the form's example. */
  readonly hostnameExample: string;
  readonly port: 'none' | 'required' | 'protocol';
  readonly service?: {
    readonly secret: 'password' | 'privateKey';
    readonly tcpNeedsPort?: boolean;
    readonly noTcpFallback?: boolean;
    readonly userOnlyWhen?: { readonly field: N; readonly values: readonly string[] };
    readonly implicitUser?: string;
    readonly secretLabel?: string;
  };
  readonly fields: readonly KindCatalogueField<N>[];
}
`;

/** The module's text: the types, then each section as a constant (its literal types kept). */
export function catalogueModule(value: Catalogue = catalogue()): string {
  const sections = (Object.keys(SECTION_TYPES) as (keyof Catalogue)[]).map(
    (name) => `export const ${name} = ${JSON.stringify(value[name], null, 2)} as const satisfies readonly ${SECTION_TYPES[name]}[];\n`,
  );
  return ["// Generated by scripts/console-catalogue.ts from the service's descriptors: do not edit.\n", TYPES, ...sections].join('\n');
}

if (require.main === module) {
  try {
    writeIfChanged(OUT, catalogueModule());
  } catch (error: unknown) {
    process.stderr.write(`console catalogue: ${String(error)}\n`);
    process.exit(1);
  }
}
