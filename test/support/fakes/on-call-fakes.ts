import { AppError } from '../../../src/domain/shared/app-error';
import type { Team } from '../../../src/domain/on-call/teams';
import type { Schedule } from '../../../src/domain/on-call/schedule';
import type { EscalationPolicy } from '../../../src/domain/on-call/escalation-policy';
import type { ContactMethod } from '../../../src/domain/incident-management/contact-method';
import type {
  ContactMethodRepository,
  ImPeople,
  DueEscalation,
  EscalatingIncident,
  EscalationLedger,
  EscalationPolicyRepository,
  PagingContact,
  PagingContacts,
  ScheduleRepository,
  TeamRepository,
} from '../../../src/application/on-call/ports';
import type { Transaction } from '../../../src/application/shared/transaction';
import { copyOf } from './shared-fakes';

/** Records with a uuid id, an organization and a version, kept per organization as the SQL adapters do. */
class VersionedStore<T extends { id: string; organizationId: number; version: number }> {
  protected readonly rows = new Map<string, T>();

  async add(record: T): Promise<void> {
    this.rows.set(record.id, copyOf(record));
  }

  async find(organizationId: number, id: string): Promise<T | null> {
    const row = this.rows.get(id);
    return row && row.organizationId === organizationId ? copyOf(row) : null;
  }

  async save(record: T): Promise<void> {
    const stored = this.rows.get(record.id);
    if (!stored || stored.version !== record.version) throw new AppError('conflict');
    record.version += 1;
    this.rows.set(record.id, copyOf(record));
  }

  async remove(record: T): Promise<void> {
    this.rows.delete(record.id);
  }

  protected of(organizationId: number): T[] {
    return [...this.rows.values()].filter((r) => r.organizationId === organizationId).map(copyOf);
  }
}

export class FakeTeams extends VersionedStore<Team> implements TeamRepository {
  async listIn(organizationId: number, _tx: Transaction) {
    return this.list(organizationId);
  }
  async list(organizationId: number): Promise<Team[]> {
    return this.of(organizationId);
  }
}

export class FakeSchedules extends VersionedStore<Schedule> implements ScheduleRepository {
  async listIn(organizationId: number, filter: { teamId?: string }, _tx: Transaction) {
    return this.list(organizationId, filter);
  }
  async list(organizationId: number, filter: { teamId?: string } = {}): Promise<Schedule[]> {
    return this.of(organizationId).filter((s) => filter.teamId === undefined || s.teamId === filter.teamId);
  }
}

export class FakeEscalationPolicies extends VersionedStore<EscalationPolicy> implements EscalationPolicyRepository {
  async findIn(organizationId: number, id: string, _tx: Transaction) {
    return this.find(organizationId, id);
  }
  async list(organizationId: number): Promise<EscalationPolicy[]> {
    return this.of(organizationId);
  }
}

/** People with e-mail addresses, per organization. */
export class FakePagingContacts implements PagingContacts {
  readonly people = new Map<string, PagingContact & { organizationId: number }>();

  add(organizationId: number, userId: string, name: string): this {
    this.people.set(userId, { organizationId, name, email: `${userId}@people.example` });
    return this;
  }

  async contactsIn(organizationId: number, userIds: readonly string[], _tx: Transaction) {
    return this.contacts(organizationId, userIds);
  }
  async contacts(organizationId: number, userIds: readonly string[]): Promise<Map<string, PagingContact>> {
    const out = new Map<string, PagingContact>();
    for (const id of userIds) {
      const person = this.people.get(id);
      if (person && person.organizationId === organizationId) out.set(id, { name: person.name, email: person.email });
    }
    return out;
  }
}

/** The escalation ledger over incidents the test opens, acknowledges and resolves by hand. */
export class FakeEscalationLedger implements EscalationLedger {
  readonly incidents = new Map<string, EscalatingIncident>();
  readonly rows = new Map<string, { nextStep: number | null; nextDueAt: Date | null }>();

  open(incident: EscalatingIncident): void {
    this.incidents.set(incident.id, incident);
  }

  update(id: string, change: Partial<EscalatingIncident>): void {
    this.incidents.set(id, { ...this.incidents.get(id)!, ...change });
  }

  async adoptNew(_now: Date, tx?: Transaction): Promise<number> {
    this.calls.push({ call: 'adoptNew', tx });
    let adopted = 0;
    for (const incident of this.incidents.values()) {
      if (this.rows.has(incident.id) || !incident.escalationPolicyId || incident.acknowledgedAt || incident.resolvedAt) continue;
      this.rows.set(incident.id, { nextStep: 0, nextDueAt: incident.openedAt });
      adopted += 1;
    }
    return adopted;
  }

  /** Each adoption, claim and advance with the transaction it was handed (undefined: none). */
  readonly calls: Array<{ call: 'adoptNew' | 'claimDue' | 'claimIncident' | 'advance'; tx: Transaction | undefined }> = [];

  async claimDue(now: Date, limit: number, tx?: Transaction): Promise<DueEscalation[]> {
    this.calls.push({ call: 'claimDue', tx });
    return [...this.rows.entries()]
      .filter(([, row]) => row.nextDueAt !== null && row.nextDueAt <= now)
      .slice(0, limit)
      .map(([id, row]) => ({ incident: this.incidents.get(id)!, nextStep: row.nextStep!, nextDueAt: row.nextDueAt! }));
  }

  async claimIncident(
    organizationId: number,
    incidentId: string,
    _now?: Date,
    tx?: Transaction,
  ): Promise<{ incident: EscalatingIncident; nextStep: number | null } | null> {
    this.calls.push({ call: 'claimIncident', tx });
    const incident = this.incidents.get(incidentId);
    if (!incident || incident.organizationId !== organizationId) return null;
    if (!this.rows.has(incidentId)) this.rows.set(incidentId, { nextStep: 0, nextDueAt: incident.openedAt });
    return { incident, nextStep: this.rows.get(incidentId)!.nextStep };
  }

  async advance(incidentId: string, next: { step: number; dueAt: Date } | null, _now?: Date, tx?: Transaction): Promise<void> {
    this.calls.push({ call: 'advance', tx });
    this.rows.set(incidentId, { nextStep: next?.step ?? null, nextDueAt: next?.dueAt ?? null });
  }
}

/** Contact methods by user, each with its organization (the account e-mail's setting is a row with id account-email). */
export class FakeContactMethods implements ContactMethodRepository {
  readonly rows: ContactMethod[] = [];

  async list(organizationId: number, userId: string) {
    return this.rows.filter((m) => m.organizationId === organizationId && m.userId === userId).map((m) => ({ ...m }));
  }
  async find(organizationId: number, id: string) {
    const found = this.rows.find((m) => m.organizationId === organizationId && m.id === id && m.id !== 'account-email');
    return found ? { ...found } : null;
  }
  async put(method: ContactMethod) {
    const index = this.rows.findIndex((m) => m.userId === method.userId && m.id === method.id);
    if (index >= 0) this.rows[index] = { ...method };
    else this.rows.push({ ...method });
  }
  async remove(organizationId: number, userId: string, id: string) {
    const index = this.rows.findIndex((m) => m.organizationId === organizationId && m.userId === userId && m.id === id);
    if (index >= 0) this.rows.splice(index, 1);
  }
  async ofUsersIn(organizationId: number, userIds: readonly string[], _tx: Transaction) {
    return this.ofUsers(organizationId, userIds);
  }
  async ofUsers(organizationId: number, userIds: readonly string[]) {
    const out = new Map<string, ContactMethod[]>();
    for (const userId of userIds) {
      const list = await this.list(organizationId, userId);
      if (list.length) out.set(userId, list);
    }
    return out;
  }
}

/** The organization's users by id with their names, for ImPeople; IM on or off per organization. */
export class FakeImPeople implements ImPeople {
  readonly users = new Map<string, { organizationId: number; name: string }>();
  readonly enabled = new Set<number>();
  add(organizationId: number, userId: string, name = userId): this {
    this.users.set(userId, { organizationId, name });
    return this;
  }
  async named(organizationId: number, userIds: readonly string[]) {
    const out = new Map<string, string>();
    for (const id of userIds) {
      const user = this.users.get(id);
      if (user?.organizationId === organizationId) out.set(id, user.name);
    }
    return out;
  }
  async imEnabled(organizationId: number) {
    return this.enabled.has(organizationId);
  }
}
