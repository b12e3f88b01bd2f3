import { AppError } from '../../domain/shared/app-error';
import { token } from '../shared/token';

/** The database as this build needs it. */
export interface SchemaProbe {
  /** How many of this build's migrations the database lacks; rejects when the database does not answer in time. */
  pendingMigrations(): Promise<number>;
}
export const SCHEMA_PROBE = token<SchemaProbe>('SchemaProbe');

/**
 * Whether this process can serve requests: the database answers and its schema is this build's.
 * A process that is up but cannot serve answers databaseUnavailable or migrationsPending, and is
 * ready again as soon as the database is, without a restart.
 */
export class CheckReadiness {
  constructor(private readonly schema: SchemaProbe) {}

  async execute(): Promise<{ status: 'ready' }> {
    let pending: number;
    try {
      pending = await this.schema.pendingMigrations();
    } catch {
      throw new AppError('databaseUnavailable');
    }
    if (pending > 0) throw new AppError('migrationsPending', { pending });
    return { status: 'ready' };
  }
}
