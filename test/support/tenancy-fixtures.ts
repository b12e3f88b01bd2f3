import { api } from './http-client';

/** A package config created through the API by an organization admin. */
export async function aPackage(token: string, body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const key = `pkg-${Math.random().toString(36).slice(2, 8)}`;
  const response = await api('POST', '/api/package-configs', {
    token,
    body: { key, displayName: `Package ${key}`, minCheckIntervalMinutes: 5, ...(body.quotaTiers ? {} : { monitorLimit: 10 }), ...body },
  });
  if (response.status !== 201) throw new Error(`package create failed: ${JSON.stringify(response.body)}`);
  return response.body;
}

/** A custom field definition created through the API by an organization admin. */
export async function aCustomField(token: string, body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const response = await api('POST', '/api/custom-fields', {
    token,
    body: { name: 'Field', fieldKey: `f_${Math.random().toString(36).slice(2, 8)}`, fieldType: 'text', ...body },
  });
  if (response.status !== 200) throw new Error(`custom field create failed: ${JSON.stringify(response.body)}`);
  return response.body;
}

export async function aDomain(token: string, customerId: number | string, body: Record<string, unknown> = {}) {
  const response = await api('POST', `/api/customers/${customerId}/domains`, {
    token,
    body: { domainName: `site-${Math.random().toString(36).slice(2, 8)}.example.com`, ...body },
  });
  if (response.status !== 200) throw new Error(`domain create failed: ${JSON.stringify(response.body)}`);
  return response.body;
}

let ipCounter = Math.floor(Math.random() * 30_000);

export async function anIp(token: string, customerId: number | string, body: Record<string, unknown> = {}) {
  ipCounter += 1;
  const response = await api('POST', `/api/customers/${customerId}/ips`, {
    token,
    body: { ipAddress: `198.18.${(ipCounter >> 8) & 255}.${ipCounter & 255}`, ...body },
  });
  if (response.status !== 201) throw new Error(`ip create failed: ${JSON.stringify(response.body)}`);
  return response.body;
}
