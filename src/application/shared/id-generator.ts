import { token } from './token';
export interface IdGenerator {
  /** A random UUID (v4), used for public ids and string ids. */
  uuid(): string;
}
export const ID_GENERATOR = token<IdGenerator>('IdGenerator');
