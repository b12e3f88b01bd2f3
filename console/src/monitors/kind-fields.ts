import { monitorKinds, type KindCatalogueField, type MonitorKindEntry } from '../api/catalogue';
import type { FieldSpec, Values } from './field-spec';
import type { FieldName, PerKindType } from './monitor-bodies';

export type { MonitorKind, PerKindType } from './monitor-bodies';

/** A kind's catalogue entry: its own settings (and the fields their conditions name) are field names of the kind's bodies. */
type KindEntryOf<K extends PerKindType> = MonitorKindEntry<K, FieldName<K>>;

/** A field name of any per-kind form: what the per-kind form builders below may name. */
export type PerKindFieldName = FieldName<PerKindType>;
/** A kind's catalogue entry as the form builders read it: any per-kind type, any per-kind field name. */
export type KindEntry = MonitorKindEntry<PerKindType, PerKindFieldName>;

/**
 * The per-kind monitor kinds in the API's order, each with its words, rules and own settings: the
 * catalogue generated from the monitor kind descriptors (scripts/console-catalogue.ts). A kind the
 * API does not know, or a setting that is not a field of its kind's create and update bodies, fails
 * the typecheck here.
 */
const ENTRIES: readonly { [K in PerKindType]: KindEntryOf<K> }[PerKindType][] = monitorKinds;

/** The per-kind types, in the picker's order. */
export const PER_KIND_TYPES: readonly PerKindType[] = ENTRIES.map((entry) => entry.type);

/** A kind's catalogue entry. `listed` narrows the API's kind to the catalogue's: a kind the API has and the catalogue lacks fails the typecheck here. */
export function kindEntry(kind: PerKindType): KindEntry {
  const listed: (typeof monitorKinds)[number]['type'] = kind;
  const entry = ENTRIES.find((each) => each.type === listed);
  if (!entry) throw new Error(`No catalogue entry for monitor kind ${kind}`);
  return entry;
}

type Spec = FieldSpec<PerKindFieldName>;
type KindValues = Values<PerKindFieldName>;

/** A service's settings that mean nothing to a bare port check (checkMode tcp): TLS, the login. */
export const protocolMode = (v: KindValues) => v.checkMode !== 'tcp';

const MODE: Spec = {
  name: 'checkMode',
  label: 'Check',
  type: 'select',
  options: ['protocol', 'tcp'],
  hint: 'tcp: only that the port accepts',
};
/** Whether a setting's condition holds for the form's values (none: always). */
const holds = (condition: { readonly field: PerKindFieldName; readonly values: readonly string[] } | undefined) =>
  condition ? (v: KindValues) => condition.values.includes(String(v[condition.field] ?? '')) : () => true;

/**
 * Every service is offered a user and a password (an SSH key is set through the API); a kind whose
 * user is asked only sometimes (SNMP v3) sends its implicit user otherwise.
 */
function loginFields(service: NonNullable<KindEntry['service']>): readonly Spec[] {
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
const hostField = (entry: KindEntry): Spec =>
  entry.hostname === 'names'
    ? { name: 'hostname', label: 'DNS name', type: 'text', placeholder: entry.hostnameExample || 'example.com' }
    : { name: 'hostname', label: 'Host', type: 'text', placeholder: entry.hostnameExample || 'host.example.com' };

/** The port: none, required, or empty for the protocol's own (a tcp check of a kind with several needs one). */
function portFields(entry: KindEntry): Spec[] {
  if (entry.port === 'none') return [];
  if (entry.port === 'required') return [{ name: 'port', label: 'Port', type: 'number' }];
  const hint = entry.service?.tcpNeedsPort ? 'Empty: the protocol port; a tcp check needs one' : 'Empty: the protocol port';
  return [{ name: 'port', label: 'Port', type: 'number', nullable: true, hint }];
}

/** One of a kind's own settings as a form field, from its API input: values to pick, lines, or text. */
function settingField(field: KindCatalogueField<PerKindFieldName>): Spec {
  const { input } = field;
  const control: Pick<Spec, 'type' | 'options' | 'nullable'> =
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
      ? { when: (v: KindValues) => (!field.protocolOnly || protocolMode(v)) && holds(field.onlyWhen)(v) }
      : {}),
    ...(field.default === undefined ? { required: true } : {}),
  };
}

/** A kind's form fields: the host, the settings of every mode, the port, the check mode, the protocol's own settings, the login. */
export function kindFieldSpecs(kind: PerKindType): readonly Spec[] {
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
export function kindDefaults(kind: PerKindType): KindValues {
  const entry = kindEntry(kind);
  return {
    hostname: '',
    ...(entry.port === 'none' ? {} : { port: '' }),
    ...(entry.service ? { checkMode: 'protocol', 'credentials.username': '', 'credentials.password': '' } : {}),
    ...Object.fromEntries(entry.fields.map((field) => [field.name, initialOf(field)])),
  };
}
