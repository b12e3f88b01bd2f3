import { TARGET_POLICY } from '../../src/application/shared/target-policy';
import { CHECKS_SETTINGS, type ChecksSettings } from '../../src/main/modules/checks.module';
import { testServer } from './test-server';
import { LoopbackTargetPolicy } from './loopback-target-policy';

/**
 * TEST SUPPORT ONLY: points the running test server's check engine at loopback peers (resolvers,
 * blocklist zones, RDAP bootstrap, WHOIS root, the test CA) with the loopback-only target policy.
 * Call before the first tool request: the engine is built on first use.
 */
export async function useLoopbackChecks(settings: Partial<ChecksSettings>): Promise<void> {
  const { container } = await testServer();
  const base = container.get<ChecksSettings>(CHECKS_SETTINGS);
  container.rebind(TARGET_POLICY).toConstantValue(new LoopbackTargetPolicy());
  container.rebind(CHECKS_SETTINGS).toConstantValue({ ...base, ...settings });
}
