import type { Clock } from '../shared/clock';
import type { AgentAccessTokenRepository, AgentRegistrationRepository } from './ports';

const DAY_MS = 24 * 3600 * 1000;

/**
 * Housekeeping (hourly job): access tokens a day after they expired, registrations nobody claimed a
 * week after their window closed, revoked ones after 30 days (their tokens go with them).
 */
export class PurgeStaleAgentRecords {
  constructor(
    private readonly registrations: AgentRegistrationRepository,
    private readonly tokens: AgentAccessTokenRepository,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<{ tokens: number; registrations: number }> {
    const now = this.clock.now().getTime();
    const tokens = await this.tokens.purgeExpired(new Date(now - DAY_MS));
    const registrations = await this.registrations.purge(new Date(now - 7 * DAY_MS), new Date(now - 30 * DAY_MS));
    return { tokens, registrations };
  }
}
