import type { BenchService } from '../support/service';

/** What a scenario measures: one GET of a paged list, with the caller's headers. */
export interface ScenarioTarget {
  path: string;
  headers: Record<string, string>;
  /** The data set, for the report. */
  description: string;
  /**
   * Also measure latency under an open-loop load of `rate` requests/s over the same 50 connections
   * (evenly spaced, latency from each request's scheduled start), against a p99 target.
   */
  latency?: { rate: number; p99TargetMs: number };
}

export interface ApiScenario {
  name: string;
  /** Seeds the service (through its API and the `sql` IPC request) and answers what to load. */
  prepare(service: BenchService): Promise<ScenarioTarget>;
}

/** A JSON call against the service, throwing unless it answers 2xx. */
export async function call<T>(service: BenchService, method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<T>;
}

/** A fresh organization with an organization-wide wsm_ token. */
export async function anOrganizationWithToken(service: BenchService, label: string) {
  const signUp = await call<{ token: string; user: { organizationId: number } }>(service, 'POST', '/api/auth/sign-up/email', {
    name: 'Bench',
    email: `${label}-${Date.now()}@bench.example`,
    password: 'bench password',
    organizationName: label,
  });
  const minted = await call<{ token: string }>(service, 'POST', '/api/organization/tokens', { name: 'bench' }, signUp.token);
  return { organizationId: signUp.user.organizationId, sessionToken: signUp.token, token: minted.token };
}
