import path from 'node:path';

/** Whether this run is the compiled JavaScript (`npm run bench:*` builds first) rather than TypeScript through tsx. */
const compiled = path.extname(__filename) === '.js';

/** Node flags a forked bench script needs to run as this one does: tsx's loader for TypeScript, none for the build. */
export const loaderFlags: readonly string[] = compiled ? [] : ['--import', 'tsx'];

/** A script of bench/support by name (no extension), in the form this run uses. */
export const supportScript = (name: string): string => path.join(__dirname, `${name}${compiled ? '.js' : '.ts'}`);
