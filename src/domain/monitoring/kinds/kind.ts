import type { CheckRequest, Credentials } from '../../checks/check-request';
import type { MonitorConfig } from '../monitor-config';
import type { CheckMode } from '../service-protocols';

/**
 * What the API takes for one of a kind's own settings (the edge builds its schemas, the console its
 * form, from this): one of fixed values; a string of at most `max` characters (null too when
 * `nullable`), an IP address when `address` (vetted as a connection target: the target policy judges
 * it, public or allowlisted); or a list of at most `max` strings of 1 to `itemMax` characters.
 */
export type KindFieldInput =
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  | { readonly kind: 'string'; readonly max: number; readonly nullable?: boolean; readonly address?: boolean }
  | { readonly kind: 'list'; readonly itemMax: number; readonly max: number };

/** One setting of a kind, stored in the monitor's `config` and returned as a field of its own. */
export interface KindField {
  readonly name: keyof MonitorConfig & string;
  /** The form's label. */
  readonly label: string;
  /** The API's description of the field (none: its values say it all). */
  readonly help?: string;
  /** How the console's form says to type it, when that differs from the help (`One per line`). */
  readonly hint?: string;
  readonly input: KindFieldInput;
  /** What a monitor created without it gets; none: required at creation (validationFailed naming it). */
  readonly default?: string | readonly string[] | null;
  /** Only in the protocol checkMode (a TLS mode means nothing to a bare port check). */
  readonly protocolOnly?: boolean;
  /** Asked and used only when another setting has one of these values (SNMP's v3 protocols: snmpVersion v3). */
  readonly onlyWhen?: FieldCondition;
}

/** A setting's value that makes another setting mean something. */
export interface FieldCondition {
  readonly field: keyof MonitorConfig & string;
  readonly values: readonly string[];
}

/**
 * A service a kind logs in to, with a bare TCP port check as its fallback (checkMode `tcp`, which
 * stores no credentials). `secret` is the credential a login of this kind carries besides the user:
 * an SSH key, a password elsewhere (monitoring as code writes it as a reference, never its value).
 */
export interface ServiceLogin {
  readonly secret: keyof Credentials & ('password' | 'privateKey');
  /** The protocol's port is not one in tcp mode (IMAP and POP3 have four): the port is then required. */
  readonly tcpNeedsPort?: boolean;
  /** Not over TCP (SNMP): no bare port check, checkMode tcp is refused (invalidCheckMode). */
  readonly noTcpFallback?: boolean;
  /**
   * The login's user is asked only under this condition (an SNMP v2c community is a password alone);
   * otherwise the login is sent with `implicitUser`, which the check does not use.
   */
  readonly userOnlyWhen?: FieldCondition;
  readonly implicitUser?: string;
  /** What the form calls the secret when a password is not the word (SNMP: the community or auth key). */
  readonly secretLabel?: string;
}

/** What a kind's check is made from: the stored monitor, its credentials decrypted. */
export interface KindMonitor {
  readonly id: number;
  readonly organizationId: number;
  readonly timeoutSeconds: number;
  readonly hostname: string | null;
  readonly port: number | null;
  readonly checkMode: CheckMode | null;
  readonly config: MonitorConfig;
  readonly credentials: Credentials | null;
}

/**
 * One monitor kind under /api/monitors/{type}, all it declares in one file: its name and words, its
 * target (a host, which port), whether it is a service with a login, its own settings, how a monitor
 * of it becomes the check the engine dials, and a sample. Listed once in MONITOR_KIND_DESCRIPTORS
 * (./index.ts); the kinds' lists, the API's routes and schemas, monitoring as code's file and the
 * console's forms follow from there.
 */
export interface MonitorKindDescriptor<T extends string = string> {
  readonly type: T;
  /** The kind's name for people (the console's picker and headings). */
  readonly label: string;
  /** What a monitor of it watches, one line (the console's picker). */
  readonly summary: string;
  /** How it checks, for the API's description of its routes. */
  readonly notes: string;
  /** `names`: the hostname is a DNS name asked about, never an address; `any`: a host to connect to. */
  readonly hostname: 'names' | 'any';
  /** The API's description of the hostname, when it says more than the common one. */
  readonly hostnameHelp?: string;
  /** `none`: no port (DNS, ICMP); `required`; `protocol`: optional, the protocol's port by default. */
  readonly port: 'none' | 'required' | 'protocol';
  /** A service with a login and a bare-port fallback. */
  readonly service?: ServiceLogin;
  /** The settings of its own, in the order the API and the form show them. */
  readonly fields: readonly KindField[];
  /** The protocol's well-known port for these settings (null: none). */
  readonly defaultPort: (config: MonitorConfig) => number | null;
  /** The check a monitor of this kind runs (its checkMode already decided by the engine). */
  readonly checkRequest: (monitor: KindMonitor) => CheckRequest;
  /** A valid body for POST /api/monitors/{type}, beside the common fields: for tests and examples. */
  readonly sample: Readonly<Record<string, unknown>>;
}
