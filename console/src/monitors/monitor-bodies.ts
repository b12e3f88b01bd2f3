import type { components, paths } from '../api/schema';

/**
 * What the console sends for a monitor of each kind, taken from the generated API types: a kind's
 * create body is the JSON body of POST on its collection (/api/websites, /api/monitors/{kind}), its
 * update body the PATCH's on its item, a change request's the POST's on the item's change requests.
 * Each is the API document's schema of that kind (WebsiteCreate, DnsMonitorCreate, SnmpMonitorPatch,
 * ...): a kind the API gains has its bodies here without a line of the console.
 */

/** Every monitor kind the API has (website and the per-kind ones). */
export type MonitorKind = components['schemas']['Monitor']['type'];

/** The kinds under /api/monitors/{type}, as the API's document names them (every kind but website). */
export type PerKindType = Exclude<MonitorKind, 'website'>;

/** A kind's collection: /api/websites, or /api/monitors/{kind}. */
export type CollectionPath<K extends MonitorKind> = K extends 'website' ? '/api/websites' : `/api/monitors/${K}`;
/** One monitor of a kind. */
export type ItemPath<K extends MonitorKind> = `${CollectionPath<K>}/{id}`;

type JsonBody<Operation> = Operation extends { requestBody?: { content: { 'application/json': infer Body } } } ? Body : never;

/** The body that creates a monitor of kind K (for a union of kinds: the union of their bodies). */
export type CreateBody<K extends MonitorKind> = K extends MonitorKind ? JsonBody<paths[CollectionPath<K>]['post']> : never;

/** The body that updates a monitor of kind K: only what is sent changes. */
export type PatchBody<K extends MonitorKind> = K extends MonitorKind ? JsonBody<paths[ItemPath<K>]['patch']> : never;

/** The body of a change request on a monitor of kind K (its `changes`: what a PATCH would send). */
export type ChangeRequestBody<K extends MonitorKind> = K extends MonitorKind
  ? JsonBody<paths[`${ItemPath<K>}/change-requests`]['post']>
  : never;

/** A key whose value is an object of named keys (a login: `credentials`), as `key.part` per part; maps of any key and lists are not. */
type NestedNames<Body> = {
  [Key in keyof Body & string]: NonNullable<Body[Key]> extends readonly unknown[]
    ? never
    : NonNullable<Body[Key]> extends object
      ? string extends keyof NonNullable<Body[Key]>
        ? never
        : `${Key}.${keyof NonNullable<Body[Key]> & string}`
      : never;
}[keyof Body & string];

/**
 * The names a form may give its fields for a body: its keys, and `key.part` for the parts of an
 * object-valued key (`credentials.username`). Over a union of bodies: the names of any of them.
 */
export type BodyFieldName<Body> = Body extends unknown ? (keyof Body & string) | NestedNames<Body> : never;

/** A field name of kind K's form: a name of both its create and its update body (the form does both). */
export type FieldName<K extends MonitorKind> = K extends MonitorKind ? BodyFieldName<CreateBody<K>> & BodyFieldName<PatchBody<K>> : never;

/**
 * What a form sends for a body: some of its keys, each of the body's type. A value the form cannot
 * read as its type (a port typed as words) is sent as typed, so that the API names the field (its
 * validation, not the form, is the rule).
 */
export type Changes<Body> = Partial<Body>;

/** The field names every kind's form has: names of the create and update bodies of every kind. */
export type CommonFieldName = keyof CreateBody<MonitorKind> & keyof PatchBody<MonitorKind> & string;
