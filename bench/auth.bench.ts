/**
 * `npm run bench:auth`: what authenticating a request costs, as a share of a simple request's CPU.
 * Target: authentication (credential digest, cached caller lookup, every access gate) at most a
 * tenth of the CPU of a simple authenticated request served end to end.
 */
import autocannon from 'autocannon';
import { startBenchService } from './support/service';

const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 8);

async function main() {
  const service = await startBenchService();
  try {
    const signUp = await fetch(`${service.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Bench',
        email: `bench-${Date.now()}@bench.example`,
        password: 'bench password',
        organizationName: 'Bench',
      }),
    }).then((r) => r.json() as Promise<{ token: string }>);
    const minted = await fetch(`${service.url}/api/organization/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${signUp.token}` },
      body: JSON.stringify({ name: 'bench' }),
    }).then((r) => r.json() as Promise<{ token: string }>);

    const before = await service.cpuMicros();
    const load = await autocannon({
      url: `${service.url}/api/auth/get-session`,
      connections: CONNECTIONS,
      duration: DURATION_S,
      headers: { authorization: `Bearer ${minted.token}` },
    });
    const requestCpu = ((await service.cpuMicros()) - before) / load.requests.total;
    const { cpuMicrosPerCall } = await service.request<{ cpuMicrosPerCall: number }>({ type: 'auth', token: minted.token, n: 200_000 });
    const ratio = cpuMicrosPerCall / requestCpu;
    console.log(
      JSON.stringify(
        {
          date: new Date().toISOString(),
          connections: CONNECTIONS,
          durationSeconds: DURATION_S,
          simpleRequest: {
            route: 'GET /api/auth/get-session (wsm_ token)',
            requestsPerSecond: Math.round(load.requests.average),
            cpuMicrosPerRequest: Math.round(requestCpu),
            latencyP99Ms: load.latency.p99,
            non2xx: load.non2xx,
          },
          authentication: { cpuMicrosPerCall: Number(cpuMicrosPerCall.toFixed(2)) },
          ratio: Number(ratio.toFixed(3)),
          target: '<= 0.1',
          ok: ratio <= 0.1 && load.non2xx === 0,
        },
        null,
        2,
      ),
    );
  } finally {
    await service.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
