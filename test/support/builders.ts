import { randomBytes } from 'node:crypto';
import type { Actor, CallerKind } from '../../src/application/shared/actor';
import type { Role } from '../../src/domain/identity/role';
import { User } from '../../src/domain/identity/user';
import { Customer, type CustomerProfile, type CustomerTermsFields } from '../../src/domain/tenancy/customer';
import { PackageConfig } from '../../src/domain/tenancy/package-config';
import {
  checkResult,
  down,
  NO_TIMINGS,
  type CheckEvidence,
  type CheckResult,
  type CheckTimings,
  type Finding,
} from '../../src/domain/checks/check-result';
import type { CheckKind } from '../../src/domain/checks/check-request';
import type { RecordCheckResultInput } from '../../src/application/incidents/record-check-result';
import type { CheckStatus } from '../../src/domain/results/check-status';
import { CLOCK_START } from './manual-clock';

/**
 * Builders of the common records, with valid defaults and modifiers named for what a test means
 * (`anActor().forCustomer(10).withRole('readonly').build()`). Invalid input goes straight to the
 * code under test, never through a builder.
 */

/** The user behind the default actor. */
export const DEFAULT_USER_ID = 'admin-1';
/** The organization of the default actor and the default records. */
export const DEFAULT_ORGANIZATION_ID = 1;

/** A caller of use cases: by default an organization admin signed in with a session, in organization 1. */
export class ActorBuilder {
  private actor: Actor = {
    kind: 'session',
    userId: DEFAULT_USER_ID,
    role: 'admin',
    scope: { organizationId: DEFAULT_ORGANIZATION_ID, customerId: null },
    isPlatformAdmin: false,
    isPlatformSupporter: false,
    sessionId: 's1',
    tokenId: null,
    mfaEnabled: false,
    stepUpVerifiedAt: null,
    agentScopes: [],
  };

  inOrganization(organizationId: number): this {
    return this.with({ scope: { ...this.actor.scope, organizationId } });
  }

  /** Bound to one customer (a customer-scoped token or a customer's user). */
  forCustomer(customerId: number): this {
    return this.with({ scope: { ...this.actor.scope, customerId } });
  }

  withRole(role: Role): this {
    return this.with({ role });
  }

  withUser(userId: string | null): this {
    return this.with({ userId });
  }

  /** A caller with no user behind it (an agent whose authorizing user is unresolved). */
  withoutUser(): this {
    return this.withUser(null);
  }

  /** A wsm_ API token rather than a session. */
  viaApiToken(tokenId = 't1'): this {
    return this.as('apiToken', { tokenId, sessionId: null });
  }

  /** A wsma_ agent token with these OAuth scopes. */
  asAgent(agentScopes: readonly string[] = ['api.read']): this {
    return this.as('agent', { tokenId: 't1', sessionId: null, agentScopes });
  }

  /** The user has two-step verification on; the session last verified it at `stepUpVerifiedAt` (null: never). */
  withTwoStep(stepUpVerifiedAt: Date | null = null): this {
    return this.with({ mfaEnabled: true, stepUpVerifiedAt });
  }

  platformAdmin(): this {
    return this.with({ isPlatformAdmin: true });
  }

  platformSupporter(): this {
    return this.with({ isPlatformSupporter: true });
  }

  /** Any other field, as is. */
  with(overrides: Partial<Actor>): this {
    this.actor = { ...this.actor, ...overrides };
    return this;
  }

  build(): Actor {
    return { ...this.actor, scope: { ...this.actor.scope } };
  }

  private as(kind: CallerKind, overrides: Partial<Actor>): this {
    return this.with({ kind, ...overrides });
  }
}

export const anActor = () => new ActorBuilder();

/** A user of organization 1: an active admin, id `user-<n>`, named after it. */
export class UserBuilder {
  private props: ConstructorParameters<typeof User>[0];
  private readonly after: Partial<User> = {};

  constructor(id = `user-${++users}`) {
    this.props = {
      id,
      organizationId: DEFAULT_ORGANIZATION_ID,
      name: id,
      email: `${id}@users.test`,
      passwordHash: 'h',
      role: 'admin',
      now: CLOCK_START,
    };
  }

  withRole(role: Role): this {
    this.props = { ...this.props, role };
    return this;
  }

  inOrganization(organizationId: number): this {
    this.props = { ...this.props, organizationId };
    return this;
  }

  createdAt(now: Date): this {
    this.props = { ...this.props, now };
    return this;
  }

  /** Any other field, set after construction (two-step verification, platform flags, isActive...). */
  with(fields: Partial<User>): this {
    Object.assign(this.after, fields);
    return this;
  }

  build(): User {
    return Object.assign(new User(this.props), this.after);
  }
}

let users = 0;
export const aUser = (id?: string) => new UserBuilder(id);

/** The built-in standard package of organization 1, stored under `id`. */
export const aStandardPackage = (id = 1, organizationId = DEFAULT_ORGANIZATION_ID, now = CLOCK_START): PackageConfig =>
  Object.assign(PackageConfig.builtIn({ publicId: `p${id}`, organizationId, now }), { id });

let customers = 0;

/** A customer of organization 1 on the standard package, active, with a unique public id. */
export class CustomerBuilder {
  private props: ConstructorParameters<typeof Customer>[0] = {
    publicId: `c${++customers}`,
    organizationId: DEFAULT_ORGANIZATION_ID,
    package: aStandardPackage(),
    name: 'Acme',
    email: 'billing@acme.test',
    now: CLOCK_START,
  };

  withPublicId(publicId: string): this {
    return this.with({ publicId });
  }

  inOrganization(organizationId: number): this {
    return this.with({ organizationId });
  }

  named(name: string, email = `${name.toLowerCase().replace(/\W+/g, '.')}@customer.test`): this {
    return this.with({ name, email });
  }

  onPackage(pack: PackageConfig): this {
    return this.with({ package: pack });
  }

  createdAt(now: Date): this {
    return this.with({ now });
  }

  with(overrides: Partial<CustomerProfile & CustomerTermsFields> & Partial<ConstructorParameters<typeof Customer>[0]>): this {
    this.props = { ...this.props, ...overrides };
    return this;
  }

  build(): Customer {
    return new Customer(this.props);
  }
}

export const aCustomer = () => new CustomerBuilder();

/** A check's result: by default an up TCP check at the clocks' start, 1 ms, no evidence. */
export class CheckResultBuilder {
  private kind: CheckKind = 'tcp';
  private findings: Finding[] = [];
  private timings: CheckTimings = NO_TIMINGS(1);
  private evidence: CheckEvidence = {};
  private checkedAt: Date = CLOCK_START;

  ofKind(kind: CheckKind): this {
    this.kind = kind;
    return this;
  }

  at(checkedAt: Date | number): this {
    this.checkedAt = new Date(checkedAt);
    return this;
  }

  /** Down for this reason (the findings' worst decides the status). */
  down(code: Finding['code'], message = code): this {
    return this.withFindings(down(code, message));
  }

  withFindings(...findings: Finding[]): this {
    this.findings.push(...findings);
    return this;
  }

  took(totalMs: number): this {
    this.timings = NO_TIMINGS(totalMs);
    return this;
  }

  withTimings(timings: CheckTimings): this {
    this.timings = timings;
    return this;
  }

  withEvidence(evidence: CheckEvidence): this {
    this.evidence = evidence;
    return this;
  }

  build(): CheckResult {
    return checkResult({
      kind: this.kind,
      findings: this.findings,
      timings: this.timings,
      evidence: this.evidence,
      checkedAt: this.checkedAt,
    });
  }
}

export const aCheckResult = () => new CheckResultBuilder();

/** A check result as the check engine reports it to the alert rules: an HTTP check, down meaning a timeout. */
export function aResult(
  status: CheckStatus,
  checkedAt: Date,
  overrides: Partial<RecordCheckResultInput['result']> = {},
): RecordCheckResultInput['result'] {
  return {
    status,
    checkedAt,
    reasonCode: status === 'up' ? null : 'timeout',
    message: status === 'up' ? null : 'no answer within 30 s',
    timings: { dnsMs: 3, connectMs: 12, tlsMs: 20, firstByteMs: 80, totalMs: status === 'down' ? null : 120 },
    evidence: { httpStatus: status === 'up' ? 200 : null, headers: { server: 'nginx' } },
    ...overrides,
  };
}

export interface SignedUp {
  token: string;
  user: { id: string; organizationId: number; email: string; [key: string]: unknown };
  email: string;
  password: string;
}

export const uniqueEmail = (label = 'user') => `${label}-${randomBytes(5).toString('hex')}@test.example`;

/** A new organization with its first admin, signed in, through the API. Each integration test makes its own. */
export async function anOrganization(label = 'org'): Promise<SignedUp> {
  // Loaded on use, so unit tests import this module without loading the application and its test server.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load, see above
  const { api } = require('./http-client') as typeof import('./http-client');
  const email = uniqueEmail(label);
  const password = 'correct horse battery';
  const response = await api('POST', '/api/auth/sign-up/email', {
    body: { name: 'Ada Lovelace', email, password, organizationName: `${label} ${randomBytes(3).toString('hex')}` },
  });
  if (response.status !== 200) throw new Error(`sign-up failed: ${JSON.stringify(response.body)}`);
  return { ...response.body, email, password };
}
