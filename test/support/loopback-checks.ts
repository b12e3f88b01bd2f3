import { MONITOR_TARGET_POLICY } from '../../src/application/monitoring/ports';
import { TARGET_POLICY } from '../../src/application/shared/target-policy';
import { CHECKS_SETTINGS, checksModule, type ChecksSettings } from '../../src/main/modules/checks.module';
import { testServer } from './test-server';
import { LoopbackTargetPolicy } from './loopback-target-policy';

/**
 * TEST SUPPORT ONLY: points the running test server's check engine at loopback peers (resolvers,
 * blocklist zones, RDAP bootstrap, WHOIS root, the test CA) with the loopback-only target policy.
 * The checks module is reloaded, so checkers built by an earlier test (with other settings) are
 * dropped and every call starts from the configured defaults.
 */
export async function useLoopbackChecks(settings: Partial<ChecksSettings>): Promise<void> {
  const { container } = await testServer();
  if (container.isBound(CHECKS_SETTINGS)) container.unbind(CHECKS_SETTINGS);
  container.unload(checksModule);
  container.load(checksModule);
  const base = container.get<ChecksSettings>(CHECKS_SETTINGS);
  container.rebind(TARGET_POLICY).toConstantValue(new LoopbackTargetPolicy());
  container.rebind(CHECKS_SETTINGS).toConstantValue({ ...base, ...settings });
}

/**
 * TEST SUPPORT ONLY: the running test server's checks as the server was configured (its resolvers
 * and its target policy), for a test that relies on them after others pointed them at loopback
 * peers with `useLoopbackChecks` (test files share the server, and run in any order).
 */
export async function useConfiguredChecks(): Promise<void> {
  const { container } = await testServer();
  if (container.isBound(CHECKS_SETTINGS)) container.unbind(CHECKS_SETTINGS);
  container.unload(checksModule);
  container.load(checksModule);
  container.rebind(TARGET_POLICY).toService(MONITOR_TARGET_POLICY);
}
