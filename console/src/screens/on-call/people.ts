import { useEffect, useState } from 'preact/hooks';
import { api, ok } from '../../api/client';
import type { User } from '../../session';

/**
 * Names of the organization's users for the on-call screens (GET /api/users, which organization-wide
 * users may read); without them, one's own name and "user" with the start of the id.
 */
export interface People {
  readonly list: ReadonlyArray<{ id: string; name: string }>;
  nameOf(id: string): string;
}

export function usePeople(user: User): People {
  const [list, setList] = useState<Array<{ id: string; name: string }>>([{ id: user.id, name: user.name }]);
  useEffect(() => {
    // Customer-bound users would be refused (403): not asked (they never reach on-call anyway).
    if (user.customerId !== null) return;
    ok(api.GET('/api/users', { params: { query: { perPage: 200 } } }))
      .then((page) => setList(page.items.filter((u) => u.isActive).map((u) => ({ id: u.id, name: u.name }))))
      .catch(() => {});
  }, [user.id, user.customerId]);
  const names = new Map(list.map((p) => [p.id, p.name]));
  return {
    list,
    nameOf: (id) => (id === user.id ? `${user.name} (you)` : (names.get(id) ?? `user ${id.slice(0, 8)}`)),
  };
}
