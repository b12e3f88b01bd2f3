/** DATA_DIR when unset: the service's files (the embedded PostgreSQL, key files) beside where it runs. */
export const DEFAULT_DATA_DIR = './.data';
