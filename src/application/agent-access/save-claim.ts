import { AppError, isAppError } from '../../domain/shared/app-error';
import type { AgentRegistration } from '../../domain/agent-access/agent-registration';
import type { Transaction } from '../shared/transaction';
import type { AgentRegistrationRepository } from './ports';

/** Saves a claim or confirmation; losing the race to a concurrent one answers claimed_or_in_flight. */
export async function saveClaim(
  registrations: AgentRegistrationRepository,
  registration: AgentRegistration,
  tx: Transaction,
): Promise<void> {
  try {
    await registrations.save(registration, tx);
  } catch (error) {
    if (isAppError(error) && error.code === 'conflict') throw new AppError('claimed_or_in_flight');
    throw error;
  }
}
