import { useEffect, useState } from 'preact/hooks';
import { api, ok } from '../../api/client';
import type { User } from '../../session';

/**
 * Names of the organization's users for the on-call screens. Only administrators may list users
 * (GET /api/users); others see their own name and "user" with the start of the id.
 */
export interface People {
  readonly list: ReadonlyArray<{ id: string; name: string }>;
  nameOf(id: string): string;
}

export function usePeople(user: User): People {
  const [list, setList] = useState<Array<{ id: string; name: string }>>([{ id: user.id, name: user.name }]);
  useEffect(() => {
    // Others would be refused (403): they are not asked.
    if (user.role !== 'admin') return;
    ok(api.GET('/api/users', { params: { query: { perPage: 200 } } }))
      .then((page) => setList(page.items.filter((u) => u.isActive).map((u) => ({ id: u.id, name: u.name }))))
      .catch(() => {});
  }, [user.id, user.role]);
  const names = new Map(list.map((p) => [p.id, p.name]));
  return {
    list,
    nameOf: (id) => (id === user.id ? `${user.name} (you)` : (names.get(id) ?? `user ${id.slice(0, 8)}`)),
  };
}
