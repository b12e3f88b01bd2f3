import 'reflect-metadata';
import { expect } from 'chai';
import { monitorKinds } from '../../../console/src/api/catalogue';
import type { components } from '../../../console/src/api/schema';
import { PER_KIND_TYPES } from '../../../console/src/monitors/kind-fields';
import type {
  CommonFieldName,
  CreateBody,
  FieldName,
  MonitorKind,
  PatchBody,
  PerKindType,
} from '../../../console/src/monitors/monitor-bodies';
import { changesOf, COMMON_FIELDS, KIND_FIELDS, type FieldSpec } from '../../../console/src/monitors/monitor-kinds';
import { describeApi } from '../../../src/main/api-description';

type Schemas = components['schemas'];
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** A check of the typecheck: `Holds<false>` (or a kind's name where `true` is due) does not compile. */
type Holds<T extends true> = T;

// Type-level: compiled by `npm run typecheck` (tsc over test/); a form field its kind's bodies lack fails it.

/** A kind's bodies are the API document's schemas of that kind, found through its paths. */
export type _BodiesAreTheSchemas = [
  Holds<Same<CreateBody<'website'>, Schemas['WebsiteCreate']>>,
  Holds<Same<PatchBody<'website'>, Schemas['WebsitePatch']>>,
  Holds<Same<CreateBody<'dns'>, Schemas['DnsMonitorCreate']>>,
  Holds<Same<PatchBody<'imap-pop'>, Schemas['ImapPopMonitorPatch']>>,
];
/** Every kind the API has has both bodies (none is `never`). */
export type _EveryKindHasBodies = Holds<
  [{ [K in MonitorKind]: [CreateBody<K>] extends [never] ? K : [PatchBody<K>] extends [never] ? K : never }[MonitorKind]] extends [never]
    ? true
    : false
>;

/** The website form's fields are names of the website's create and update bodies. */
export type _WebsiteNamesAreBodyNames = Holds<(typeof KIND_FIELDS)['website'][number]['name'] extends FieldName<'website'> ? true : false>;

/** The fields every form has are names of every kind's bodies. */
type CommonFormName = (typeof COMMON_FIELDS)[number]['name'];
export type _CommonNamesAreEveryKindsNames = Holds<
  [{ [K in MonitorKind]: CommonFormName extends FieldName<K> ? never : K }[MonitorKind]] extends [never] ? true : false
>;

/** Each kind's own settings in the catalogue (and the fields their conditions name) are names of that kind's bodies. */
type CatalogueEntry<K> = Extract<(typeof monitorKinds)[number], { readonly type: K }>;
type CatalogueName<K> = CatalogueEntry<K>['fields'][number]['name'];
export type _CatalogueNamesAreTheirKindsNames = Holds<
  [{ [K in PerKindType]: CatalogueName<K> extends FieldName<K> ? never : K }[PerKindType]] extends [never] ? true : false
>;

/** The per-kind forms' fixed fields (host, port, mode, login) are names of the per-kind bodies (each kind's own: the OpenAPI test below). */
export type _PerKindNamesAreBodyNames = Holds<(typeof KIND_FIELDS)['dns'][number]['name'] extends FieldName<PerKindType> ? true : false>;

// @ts-expect-error a DNS monitor has no port: a DNS form field named so fails the typecheck.
export const _dnsPort: FieldSpec<FieldName<'dns'>> = { name: 'port', label: 'Port', type: 'number' };
// @ts-expect-error a name no body has fails the typecheck.
export const _unknownName: FieldSpec<CommonFieldName> = { name: 'checkIntervall', label: 'Every', type: 'number' };

/** A body the API document describes: its properties by name ($ref and a null alternative followed). */
function propertiesOf(schema: unknown, document: { components: { schemas: Record<string, unknown> } }): Record<string, unknown> {
  const node = schema as { $ref?: string; anyOf?: unknown[]; properties?: Record<string, unknown> };
  if (node.$ref) return propertiesOf(document.components.schemas[node.$ref.replace('#/components/schemas/', '')], document);
  if (node.anyOf) return Object.assign({}, ...node.anyOf.map((each) => propertiesOf(each, document)));
  return node.properties ?? {};
}

describe("console: every monitor form field is a name of its kind's create and update bodies", () => {
  it('finds each field of each kind (common, own, catalogue, login) in the OpenAPI document of that kind', () => {
    const document = describeApi() as unknown as {
      paths: Record<string, Record<string, { requestBody: { content: { 'application/json': { schema: unknown } } } }>>;
      components: { schemas: Record<string, unknown> };
    };
    const bodyOf = (path: string, method: string) => {
      const operation = document.paths[path]?.[method];
      expect(operation, `${method} ${path}`).not.to.equal(undefined);
      return propertiesOf(operation!.requestBody.content['application/json'].schema, document);
    };
    const missing: string[] = [];
    const kinds: readonly MonitorKind[] = ['website', ...PER_KIND_TYPES];
    for (const kind of kinds) {
      const collection = kind === 'website' ? '/api/websites' : `/api/monitors/${kind}`;
      const bodies = { create: bodyOf(collection, 'post'), update: bodyOf(`${collection}/{id}`, 'patch') };
      const entry = monitorKinds.find((each) => each.type === kind);
      const conditions = entry ? entry.fields.flatMap((field) => ('onlyWhen' in field ? [field.onlyWhen.field] : [])) : [];
      const names = [...[...COMMON_FIELDS, ...KIND_FIELDS[kind]].map((spec) => spec.name), ...conditions];
      for (const name of names)
        for (const [which, properties] of Object.entries(bodies)) {
          const [key, part] = name.split('.');
          const found = part === undefined ? key! in properties : part in propertiesOf(properties[key!] ?? {}, document);
          if (!found) missing.push(`${kind} ${which}: ${name}`);
        }
    }
    expect(missing).to.deep.equal([]);
  });

  it('sends what it names: a changed field goes under its own name, a login as the body’s credentials', () => {
    const specs = [...COMMON_FIELDS, ...KIND_FIELDS.ssh];
    const before = { name: '', hostname: '', checkMode: 'protocol', 'credentials.username': '', 'credentials.password': '' };
    const sent = changesOf<CreateBody<PerKindType>>(specs, before, {
      ...before,
      name: 'Bastion',
      hostname: 'bastion.example.com',
      'credentials.username': 'watch',
      'credentials.password': 'pw',
    });
    expect(sent).to.deep.equal({ name: 'Bastion', hostname: 'bastion.example.com', credentials: { username: 'watch', password: 'pw' } });
  });
});
