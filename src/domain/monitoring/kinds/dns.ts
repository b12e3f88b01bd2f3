import { DNS_RECORD_TYPES } from '../monitor-config';
import type { MonitorKindDescriptor } from './kind';

/** The records a DNS name answers with, asked of the location's resolvers or of one named. */
export const dns = {
  type: 'dns',
  label: 'DNS',
  summary: 'The records a domain answers with',
  notes:
    'DNS: hostname is the name whose records are checked (a name, not an address); recordType (default A), expectedValues, and an optional resolver ' +
    '(public or allowlisted). A name whose addresses are private (not allowlisted) is refused at create and update (invalidHostname, ' +
    'the message says which name and why); a name without address records is accepted.',
  hostname: 'names',
  // A DNS monitor's name is vetted like every target: if it has addresses they must be public or
  // allowlisted; the resolver a monitor names is a connection and goes through the target policy.
  hostnameHelp:
    'The DNS name whose records are asked for: a name, not an address; reserved names (localhost, .local, ' +
    '.internal, single labels) are refused (invalidHostname), and so is a name whose addresses are private, loopback ' +
    'or link-local unless the operator allowlisted them (CHECK_PRIVATE_ALLOWLIST), as for every other monitor. A name ' +
    'without address records (MX or TXT only) is accepted.',
  port: 'none',
  fields: [
    { name: 'recordType', label: 'Record type', input: { kind: 'enum', values: DNS_RECORD_TYPES }, default: 'A' },
    {
      name: 'expectedValues',
      label: 'Expected answers',
      help: 'Answers that must be present; empty: any answer',
      hint: 'One per line; none: any answer',
      input: { kind: 'list', itemMax: 1000, max: 20 },
      default: [],
    },
    {
      name: 'resolver',
      label: 'Resolver',
      help:
        "Nameserver to ask, an IP address (port 53): public, or in the operator's CHECK_PRIVATE_ALLOWLIST " +
        "(invalidHostname); null: the service's resolvers (DNS_SERVERS)",
      hint: "An IP address; empty: the service's resolvers",
      input: { kind: 'string', max: 255, nullable: true, address: true },
      default: null,
    },
  ],
  defaultPort: () => null,
  checkRequest: (m) => ({
    kind: 'dns',
    name: m.hostname ?? '',
    recordType: m.config.recordType ?? 'A',
    resolver: m.config.resolver ?? null,
    expectedValues: m.config.expectedValues ?? [],
    timeoutSeconds: m.timeoutSeconds,
  }),
  sample: { hostname: 'example.com', recordType: 'MX', expectedValues: ['mx.example.com'] },
} as const satisfies MonitorKindDescriptor<'dns'>;
