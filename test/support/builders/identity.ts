import { AccountDeletion } from '../../../src/application/identity/account-deletion';
import { ApiTokens } from '../../../src/application/identity/api-tokens';
import { Invitations } from '../../../src/application/identity/invitations';
import type { OrganizationRepository, PasswordHasher } from '../../../src/application/identity/ports';
import { SessionIssuer } from '../../../src/application/identity/sessions';
import { UserAdministration } from '../../../src/application/identity/user-administration';
import type { ExplicitAuditEntry } from '../../../src/application/audit/ports';
import type { TransactionRunner } from '../../../src/application/shared/transaction';
import { Organization } from '../../../src/domain/identity/organization';
import type { Role } from '../../../src/domain/identity/role';
import { aUser } from '../builders';
import { ManualClock } from '../manual-clock';
import { immediateTransactions, sequentialIds } from '../fakes/shared-fakes';
import {
  FakeCustomerDirectory,
  FakeDeletions,
  FakeInvitations,
  FakeSessions,
  FakeTokens,
  FakeUsers,
  plainSecrets,
  RecordingInvitationMailer,
  RecordingNotifier,
} from '../fakes/identity-fakes';

/** A password hasher a test can read: `hashed:<password>`. */
export const plainPasswords: PasswordHasher = {
  hash: async (password) => `hashed:${password}`,
  verify: async (hash, password) => hash === `hashed:${password}`,
};

export interface IdentityWorldOptions {
  /** The clock's start (the ManualClock's default start). */
  readonly now?: Date | string;
  /** The runner the use cases open their transactions with (one that runs at once). */
  readonly tx?: TransactionRunner;
  /** The customers the directory knows (none). */
  readonly customers?: Array<{ id: number; organizationId: number }>;
  /** Where the invitation links point. */
  readonly publicBaseUrl?: string;
}

/**
 * The identity context on its fakes, wired as the composition root wires it: users, sessions, API
 * tokens, deletion requests, invitations, the customer directory, organization 1 ("Acme"), the
 * administrators' notifier, the invitation mailer and an audit trail that keeps its entries, and the
 * use cases over them. Add people with `person`.
 */
export function anIdentityWorld(options: IdentityWorldOptions = {}) {
  const clock = new ManualClock(options.now);
  const tx = options.tx ?? immediateTransactions;
  const ids = sequentialIds();
  const users = new FakeUsers();
  const sessions = new FakeSessions();
  const tokens = new FakeTokens();
  const deletions = new FakeDeletions();
  const invitations = new FakeInvitations();
  const customers = new FakeCustomerDirectory(options.customers ?? []);
  const notifier = new RecordingNotifier();
  const mailer = new RecordingInvitationMailer();
  const organization = new Organization({ publicId: 'org-1', name: 'Acme', now: clock.now() });
  organization.id = 1;
  const organizations = { findById: async (id: number) => (id === organization.id ? organization : null) } as OrganizationRepository;
  const audit: ExplicitAuditEntry[] = [];
  const issuer = new SessionIssuer(sessions, plainSecrets, ids, clock, tx);
  return {
    clock,
    tx,
    ids,
    users,
    sessions,
    tokens,
    deletions,
    invitations,
    customers,
    notifier,
    mailer,
    organization,
    organizations,
    audit,
    issuer,
    administration: new UserAdministration(users, sessions, customers, plainPasswords, tx, ids, clock),
    deletion: new AccountDeletion(deletions, users, sessions, notifier, tx, ids, clock),
    apiTokens: new ApiTokens(tokens, customers, plainSecrets, ids, clock, tx),
    invitationsUseCase: new Invitations({
      invitations,
      users,
      organizations,
      customers,
      passwords: plainPasswords,
      secrets: plainSecrets,
      sessions: issuer,
      mailer,
      audit: { append: async (entry: ExplicitAuditEntry) => void audit.push(entry) },
      tx,
      ids,
      clock,
      publicBaseUrl: options.publicBaseUrl ?? 'https://monitor.test',
    }),
    /** A user `id` of organization 1 with `role`, created now. */
    person: (id: string, role: Role) => users.add(aUser(id).withRole(role).createdAt(clock.now()).build()),
  };
}

export type IdentityWorld = ReturnType<typeof anIdentityWorld>;
