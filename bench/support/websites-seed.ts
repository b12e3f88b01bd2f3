import type { BenchService } from './service';

async function call<T = any>(url: string, method: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(url, {
    method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json() as T;
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * An organization as a customer of the service would have it: signed up, a package, 20 customers
 * (all through the API), then `monitors` websites spread over them with tags, inserted in SQL
 * (creating 10,000 through the API would only time the setup). Answers a wsm_ token.
 */
export async function seedOrganization(service: BenchService, monitors: number): Promise<{ token: string }> {
  const base = service.url;
  const signUp = await call<{ token: string; user: { organizationId: number } }>(`${base}/api/auth/sign-up/email`, 'POST', {
    name: 'Bench', email: `bench-${Date.now()}@bench.example`, password: 'bench password', organizationName: 'Bench',
  });
  const pkg = await call<{ id: number }>(`${base}/api/package-configs`, 'POST', {
    key: 'bench', displayName: 'Bench', minCheckIntervalMinutes: 1, quotaTiers: [{ monitorLimit: 50_000, priceMonthly: 0 }],
  }, signUp.token);
  const customerIds: number[] = [];
  for (let i = 0; i < 20; i++) {
    const created = await call<{ customer: { id: number } }>(`${base}/api/customers`, 'POST', {
      name: `Customer ${i}`, email: `customer-${i}@bench.example`, packageId: pkg.id,
    }, signUp.token);
    customerIds.push(created.customer.id);
  }
  const { token } = await call<{ token: string }>(`${base}/api/organization/tokens`, 'POST', { name: 'bench' }, signUp.token);
  await service.request({ type: 'seed', organizationId: signUp.user.organizationId, customerIds, count: monitors });
  return { token };
}
