import { monitorKinds, type KindCatalogueField, type MonitorKindEntry } from '../api/catalogue';
import type { components } from '../api/schema';
import type { FieldSpec, Values } from './field-spec';

type Schemas = components['schemas'];

/** Every monitor kind the API has (website and the per-kind ones). */
export type MonitorKind = Schemas['Monitor']['type'];

/** The kinds under /api/monitors/{type}, as the API's document names them (every kind but website). */
export type PerKindType = Exclude<Schemas['Monitor']['type'], 'website'>;
type SettingName = keyof Schemas['Monitor'] & string;
export type KindEntry = MonitorKindEntry<PerKindType, SettingName>;

/**
 * The per-kind monitor kinds in the API's order, each with its words, rules and own settings: the
 * catalogue generated from the monitor kind descriptors (scripts/console-catalogue.ts). A kind or a
 * setting the API does not know fails the typecheck here.
 */
const ENTRIES: readonly KindEntry[] = monitorKinds;
const BY_TYPE = new Map(ENTRIES.map((entry) => [entry.type, entry]));

/** The per-kind types, in the picker's order. */
export const PER_KIND_TYPES: readonly PerKindType[] = ENTRIES.map((entry) => entry.type);

/** A kind's catalogue entry. `listed` narrows the API's kind to the catalogue's: a kind the API has and the catalogue lacks fails the typecheck here. */
export function kindEntry(kind: PerKindType): KindEntry {
  const listed: (typeof monitorKinds)[number]['type'] = kind;
  const entry = BY_TYPE.get(listed);
  if (!entry) throw new Error(`No catalogue entry for monitor kind ${kind}`);
  return entry;
}

/** A service's settings that mean nothing to a bare port check (checkMode tcp): TLS, the login. */
export const protocolMode = (v: Values) => v.checkMode !== 'tcp';

const MODE: FieldSpec = {
  name: 'checkMode',
  label: 'Check',
  type: 'select',
  options: ['protocol', 'tcp'],
  hint: 'tcp: only that the port accepts',
};
/** Whether a setting's condition holds for the form's values (none: always). */
const holds = (condition: { readonly field: string; readonly values: readonly string[] } | undefined) =>
  condition ? (v: Values) => condition.values.includes(String(v[condition.field] ?? '')) : () => true;

/**
 * Every service is offered a user and a password (an SSH key is set through the API); a kind whose
 * user is asked only sometimes (SNMP v3) sends its implicit user otherwise.
 */
function loginFields(service: NonNullable<KindEntry['service']>): readonly FieldSpec[] {
  const userAsked = holds(service.userOnlyWhen);
  return [
    {
      name: 'credentials.username',
      label: 'Login user',
      type: 'text',
      secret: true,
      when: (v) => protocolMode(v) && userAsked(v),
      hint: 'Optional; stored encrypted',
      ...(service.implicitUser === undefined ? {} : { implicit: service.implicitUser }),
    },
    { name: 'credentials.password', label: service.secretLabel ?? 'Login password', type: 'password', secret: true, when: protocolMode },
  ];
}

/** The hostname: a DNS name asked about, or a host to connect to. */
const hostField = (entry: KindEntry): FieldSpec =>
  entry.hostname === 'names'
    ? { name: 'hostname', label: 'DNS name', type: 'text', placeholder: entry.hostnameExample || 'example.com' }
    : { name: 'hostname', label: 'Host', type: 'text', placeholder: entry.hostnameExample || 'host.example.com' };

/** The port: none, required, or empty for the protocol's own (a tcp check of a kind with several needs one). */
function portFields(entry: KindEntry): FieldSpec[] {
  if (entry.port === 'none') return [];
  if (entry.port === 'required') return [{ name: 'port', label: 'Port', type: 'number' }];
  const hint = entry.service?.tcpNeedsPort ? 'Empty: the protocol port; a tcp check needs one' : 'Empty: the protocol port';
  return [{ name: 'port', label: 'Port', type: 'number', nullable: true, hint }];
}

/** One of a kind's own settings as a form field, from its API input: values to pick, lines, or text. */
function settingField(field: KindCatalogueField<SettingName>): FieldSpec {
  const { input } = field;
  const control: Pick<FieldSpec, 'type' | 'options' | 'nullable'> =
    input.kind === 'enum'
      ? { type: 'select', options: input.values }
      : input.kind === 'list'
        ? { type: 'list' }
        : { type: 'text', ...(input.nullable ? { nullable: true } : {}) };
  return {
    name: field.name,
    label: field.label,
    ...control,
    ...(field.hint ? { hint: field.hint } : {}),
    ...(field.protocolOnly || field.onlyWhen
      ? { when: (v: Values) => (!field.protocolOnly || protocolMode(v)) && holds(field.onlyWhen)(v) }
      : {}),
    ...(field.default === undefined ? { required: true } : {}),
  };
}

/** A kind's form fields: the host, the settings of every mode, the port, the check mode, the protocol's own settings, the login. */
export function kindFieldSpecs(kind: PerKindType): readonly FieldSpec[] {
  const entry = kindEntry(kind);
  const own = (protocolOnly: boolean) => entry.fields.filter((f) => (f.protocolOnly === true) === protocolOnly).map(settingField);
  return [
    hostField(entry),
    ...own(false),
    ...portFields(entry),
    ...(entry.service && !entry.service.noTcpFallback ? [MODE] : []),
    ...own(true),
    ...(entry.service ? loginFields(entry.service) : []),
  ];
}

/** What a setting starts as: its default; for a required one, the first of its values (or nothing). */
function initialOf(field: KindCatalogueField): string {
  if (field.default === undefined) return field.input.kind === 'enum' ? (field.input.values[0] ?? '') : '';
  if (field.default === null) return '';
  return typeof field.default === 'string' ? field.default : field.default.join('\n');
}

/** The values a new monitor of a kind starts with (beside the common ones): the API's defaults. */
export function kindDefaults(kind: PerKindType): Values {
  const entry = kindEntry(kind);
  return {
    hostname: '',
    ...(entry.port === 'none' ? {} : { port: '' }),
    ...(entry.service ? { checkMode: 'protocol', 'credentials.username': '', 'credentials.password': '' } : {}),
    ...Object.fromEntries(entry.fields.map((field) => [field.name, initialOf(field)])),
  };
}
