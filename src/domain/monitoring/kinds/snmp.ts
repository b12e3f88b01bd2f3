import { SNMP_AUTH_PROTOCOLS, SNMP_COMPARISONS, SNMP_PRIV_PROTOCOLS, SNMP_VERSIONS } from '../monitor-config';
import type { FieldCondition, MonitorKindDescriptor } from './kind';

/** Settings only v3 has (its user, its protocols). */
const V3: FieldCondition = { field: 'snmpVersion', values: ['v3'] };

/**
 * An SNMP agent answering a GET of one OID (UDP): v2c with its community, or v3 with a user (its
 * authentication and privacy protocols and keys). The login is the monitor's credentials, write-only:
 * v2c's community is the password (no credentials: public); v3's user the username, its auth key the
 * password and its privacy key the privateKey (none: the auth key). The value may be compared with
 * expectedValue: equal, containing it, or a number below or above it.
 */
export const snmp = {
  type: 'snmp',
  label: 'SNMP',
  summary: 'An SNMP agent answering a GET (and the value it gives)',
  notes:
    'SNMP: a GET of oid over UDP (port 161 by default), v2c or v3. credentials (write-only): v2c the community as password (none: public; ' +
    'username unused); v3 username the user, password the auth key, privateKey the privacy key (none: the auth key). ' +
    'With expectedValue the value must equal or contain it, or be a number below or above it (comparison). checkMode tcp does not apply (UDP).',
  hostname: 'any',
  port: 'protocol',
  service: {
    secret: 'password',
    noTcpFallback: true,
    userOnlyWhen: V3,
    implicitUser: 'public',
    secretLabel: 'Community (v2c) or authentication key (v3)',
  },
  fields: [
    { name: 'snmpVersion', label: 'SNMP version', input: { kind: 'enum', values: SNMP_VERSIONS }, default: 'v2c' },
    {
      name: 'oid',
      label: 'OID',
      help: 'The object asked for, numeric and dotted (such as 1.3.6.1.2.1.1.3.0, the agent uptime)',
      hint: 'Such as 1.3.6.1.2.1.1.3.0',
      input: { kind: 'string', max: 256 },
    },
    {
      name: 'expectedValue',
      label: 'Expected value',
      help: 'What the value is compared with (comparison); null: any value is up',
      hint: 'Empty: any value',
      input: { kind: 'string', max: 256, nullable: true },
      default: null,
    },
    {
      name: 'comparison',
      label: 'Comparison',
      help: 'equals (the value as text), contains, below or above (the value and expectedValue as numbers)',
      input: { kind: 'enum', values: SNMP_COMPARISONS },
      default: 'equals',
    },
    {
      name: 'authProtocol',
      label: 'v3 authentication',
      help: 'SNMP v3 only: the authentication protocol; none: no authentication (noAuthNoPriv)',
      input: { kind: 'enum', values: SNMP_AUTH_PROTOCOLS },
      default: 'sha',
      onlyWhen: V3,
    },
    {
      name: 'privProtocol',
      label: 'v3 privacy',
      help: 'SNMP v3 only: the privacy (encryption) protocol; none: authentication only (authNoPriv)',
      input: { kind: 'enum', values: SNMP_PRIV_PROTOCOLS },
      default: 'aes',
      onlyWhen: V3,
    },
  ],
  defaultPort: () => 161,
  checkRequest: (m) => {
    const c = m.config;
    const login = m.credentials;
    const authKey = login?.password ?? '';
    return {
      kind: 'snmp',
      host: m.hostname ?? '',
      port: m.port ?? 161,
      version: c.snmpVersion ?? 'v2c',
      community: c.snmpVersion === 'v3' ? '' : (login?.password ?? 'public'),
      user:
        c.snmpVersion === 'v3'
          ? {
              name: login?.username ?? '',
              authProtocol: c.authProtocol ?? 'sha',
              authKey,
              privProtocol: c.privProtocol ?? 'aes',
              privKey: login?.privateKey ?? authKey,
            }
          : null,
      oid: c.oid ?? '',
      expected: c.expectedValue == null ? null : { value: c.expectedValue, comparison: c.comparison ?? 'equals' },
      timeoutSeconds: m.timeoutSeconds,
    };
  },
  sample: { hostname: 'switch.example.com', oid: '1.3.6.1.2.1.1.3.0', expectedValue: '100', comparison: 'above' },
} as const satisfies MonitorKindDescriptor<'snmp'>;
