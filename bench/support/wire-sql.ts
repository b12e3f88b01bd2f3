import { Sql } from '../../src/infrastructure/persistence/sql';

/**
 * A `sql` statement as it crosses the bench's IPC channel (JSON): its text pieces and its values,
 * put together again on the service's side. Values travel as JSON does (a Date as its ISO text).
 */
export interface WireStatement {
  readonly strings: readonly string[];
  readonly values: readonly unknown[];
}

export const toWire = (statement: Sql): WireStatement => ({ strings: statement.strings, values: statement.values });

export const fromWire = (wire: WireStatement): Sql => new Sql(wire.strings, wire.values);
