import { token } from './token';

/**
 * The transaction a use case's writes run in, as `TransactionRunner.run` hands it over. The
 * application never looks inside it (no ORM, no SQL here): it passes it on to each write port that
 * must join it, and such a port takes it in its signature, so which writes commit together reads in
 * the application layer's types. Only the persistence adapters open it (the statements of that
 * transaction). The protected brand keeps an object literal from passing for one.
 */
export abstract class Transaction {
  protected readonly brand = 'transaction' as const;
}

/** Runs work atomically: every write given `tx` inside `run` commits together or not at all. */
export interface TransactionRunner {
  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
}
export const TRANSACTION_RUNNER = token<TransactionRunner>('TransactionRunner');
