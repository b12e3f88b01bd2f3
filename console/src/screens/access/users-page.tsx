import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, describe, ok, type Customer, type Schemas } from '../../api/client';
import { ErrorText } from '../../components/field';
import { loadCustomers } from '../../monitors/monitor-rows';
import type { User } from '../../session';
import { may } from '../../permissions';
import { AddUser } from './add-user';
import { InviteUser } from './invite-user';
import { UserLine } from './user-line';
import './access.css';

type Member = Schemas['User'];

/** Every user of the organization (GET /api/users, page by page). */
async function loadUsers(): Promise<Member[]> {
  const users: Member[] = [];
  for (let page = 1; ; page++) {
    const answer = await ok(api.GET('/api/users', { params: { query: { page, perPage: 200 } } }));
    users.push(...answer.items);
    if (users.length >= answer.total || answer.items.length === 0) return users;
  }
}

/** Users and roles: the list for everyone who may read it, and the writes for administrators. */
export function UsersPage({ user }: { user: User }) {
  const [users, setUsers] = useState<Member[] | null>(null);
  const [customers, setCustomers] = useState<Customer[]>([]);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      const [list, known] = await Promise.all([loadUsers(), loadCustomers().catch(() => [] as Customer[])]);
      setUsers(list);
      setCustomers(known);
    } catch (failure) {
      setError(describe(failure));
    }
  }, []);
  useEffect(() => void load(), [load]);
  const admin = may(user, 'user.manage');
  const customerName = (id: number | null) =>
    id === null ? 'Whole organization' : (customers.find((c) => c.id === id)?.name ?? `Customer ${id}`);
  return (
    <section aria-labelledby="users-title">
      <h1 id="users-title">Users and roles</h1>
      <p class="muted">
        Administrators change everything; editors change monitors and settings; responders handle incidents; read-only users look. A user
        tied to a customer sees only that customer.
      </p>
      <ErrorText message={error} />
      {users === null && !error ? <p role="status">Loading users…</p> : null}
      <ul class="access-list" aria-label="Users">
        {users?.map((member) => (
          <UserLine
            key={member.id}
            member={member}
            customer={customerName(member.customerId)}
            self={member.id === user.id}
            admin={admin}
            onChanged={load}
          />
        ))}
      </ul>
      {admin ? (
        <div class="access-add">
          <AddUser customers={customers} onAdded={load} />
          <InviteUser customers={customers} />
        </div>
      ) : (
        <p class="muted">Only administrators add, change or remove users.</p>
      )}
    </section>
  );
}
