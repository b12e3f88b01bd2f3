import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * Writes a generated file only when its text changed. `npm test` runs the console's build beside the
 * typecheck and ESLint, which read the generated files: regenerating the same text must not rewrite
 * a file while they read it (nor touch its time for tools that watch it).
 */
export function writeIfChanged(file: string, text: string): void {
  if (!existsSync(file) || readFileSync(file, 'utf8') !== text) writeFileSync(file, text);
}
