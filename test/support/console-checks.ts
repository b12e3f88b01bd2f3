import { apiAt } from './http-client';

/**
 * Two checks of a monitor (or `times`), each run to its result before the next (as the bench does):
 * on a failing target the customer's default opens its incident. A check's result is the first
 * checked at or after its trigger's `requestedAt`.
 */
export async function checkTwice(url: string, token: string, publicId: string, times = 2): Promise<void> {
  const newest = async () =>
    Date.parse(
      ((await apiAt(url, 'GET', `/api/websites/${publicId}/check-history?perPage=1`, { token })).body.items?.[0]?.checkedAt ??
        '') as string,
    );
  for (let i = 0; i < times; i++) {
    const triggered = await apiAt(url, 'POST', `/api/websites/${publicId}/trigger-check`, { token, body: {} });
    if (triggered.status >= 300) throw new Error(`trigger-check: ${triggered.status} ${JSON.stringify(triggered.body)}`);
    const asked = Date.parse(triggered.body.requestedAt as string);
    for (let tries = 0; !((await newest()) >= asked); tries++) {
      if (tries > 300) throw new Error(`no result for ${publicId} checked since ${triggered.body.requestedAt}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
