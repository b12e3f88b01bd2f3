import { AuthenticateCaller } from '../../application/identity/authenticate-caller';
import { EnsurePlatformAdmin } from '../../application/identity/ensure-platform-admin';
import { PLATFORM_SETTINGS_REPOSITORY } from '../../application/identity/ports';
import { PROBE_PATHS } from '../../interfaces/http/identity/probes.router';
import { accessGates } from '../../interfaces/http/shared/gates';
import { defineAdmission, type ContextModule } from './context-module';

/**
 * What the identity context brings to the host besides its bindings and routers: the host's
 * admission (callers authenticated, then the access gates), the health probes' paths
 * (kept out of the request log) and the platform admin ensured at start (PLATFORM_ADMIN_EMAIL).
 */
export const identityHostParts = {
  admission: defineAdmission({
    needs: { authenticate: AuthenticateCaller, platformSettings: PLATFORM_SETTINGS_REPOSITORY },
    build: (use, config) => ({
      authenticate: use.authenticate,
      gates: accessGates({ trustedOrigins: config.trustedOrigins, platformSwitches: () => use.platformSettings.get() }),
    }),
  }),
  quietPaths: PROBE_PATHS,
  workers: [
    {
      name: 'platform admin',
      start: async ({ config, get }) => {
        const admin = config.platformAdmin;
        if (admin) await get(EnsurePlatformAdmin).execute(admin);
        return undefined;
      },
    },
  ],
} satisfies Partial<ContextModule>;
