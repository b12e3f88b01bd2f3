import { AppError } from '../../domain/shared/app-error';
import { Organization } from '../../domain/identity/organization';
import { User } from '../../domain/identity/user';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { TransactionRunner } from '../shared/transaction';
import type { OrganizationRepository, PasswordHasher, UserRepository } from './ports';
import type { SessionIssuer } from './sessions';

export interface SignUpInput {
  name: string;
  email: string;
  password: string;
  organizationName: string;
}

/** Creates an active organization and its first administrator, and signs them in. */
export class SignUp {
  constructor(
    private readonly signupOpen: boolean,
    private readonly organizations: OrganizationRepository,
    private readonly users: UserRepository,
    private readonly passwords: PasswordHasher,
    private readonly sessions: SessionIssuer,
    private readonly tx: TransactionRunner,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: SignUpInput): Promise<{ token: string; user: User; organization: Organization }> {
    if (!this.signupOpen) throw new AppError('signupClosed');
    const passwordHash = await this.passwords.hash(input.password);
    const { user, organization, token } = await this.tx.run(async (tx) => {
      if (await this.users.findByEmailIn(input.email, tx)) throw new AppError('emailAlreadyRegistered');
      const now = this.clock.now();
      const organization = await this.organizations.add(
        new Organization({ publicId: this.ids.uuid(), name: input.organizationName, now }),
        tx,
      );
      const user = new User({
        id: this.ids.uuid(),
        organizationId: organization.id,
        name: input.name,
        email: input.email,
        passwordHash,
        role: 'admin',
        now,
      });
      await this.users.add(user, tx);
      const { token } = await this.sessions.issue(user.id, 'session', false, tx);
      return { user, organization, token };
    });
    return { token, user, organization };
  }
}
