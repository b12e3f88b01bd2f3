import { Organization } from '../../domain/identity/organization';
import { User } from '../../domain/identity/user';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { TransactionRunner } from '../shared/transaction';
import type { OrganizationRepository, PasswordHasher, UserRepository } from './ports';

export const PLATFORM_ORGANIZATION_NAME = 'Platform';

/**
 * At start: make sure the configured platform admin exists, has the platform flag and the
 * configured password. Creates a Platform organization for them when the account is new.
 */
export class EnsurePlatformAdmin {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly users: UserRepository,
    private readonly passwords: PasswordHasher,
    private readonly tx: TransactionRunner,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: { email: string; password: string }): Promise<User> {
    return this.tx.run(async (tx) => {
      const now = this.clock.now();
      const existing = await this.users.findByEmailIn(input.email, tx);
      if (existing) {
        if (!existing.isGlobalAdmin || !existing.isActive) existing.grantPlatformAdmin(now);
        if (!(await this.passwords.verify(existing.passwordHash, input.password))) {
          existing.changePassword(await this.passwords.hash(input.password), now);
        }
        await this.users.save(existing, tx);
        return existing;
      }
      const organization = await this.organizations.add(
        new Organization({ publicId: this.ids.uuid(), name: PLATFORM_ORGANIZATION_NAME, now }),
        tx,
      );
      const user = new User({
        id: this.ids.uuid(),
        organizationId: organization.id,
        name: 'Platform Admin',
        email: input.email,
        passwordHash: await this.passwords.hash(input.password),
        role: 'admin',
        now,
      });
      user.grantPlatformAdmin(now);
      await this.users.add(user, tx);
      return user;
    });
  }
}
