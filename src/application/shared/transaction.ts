import { token } from './token';
/** Runs work atomically: every repository write inside `run` commits together or not at all. */
export interface TransactionRunner {
  run<T>(work: () => Promise<T>): Promise<T>;
}
export const TRANSACTION_RUNNER = token<TransactionRunner>('TransactionRunner');
