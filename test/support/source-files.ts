import fs from 'node:fs';
import path from 'node:path';

/** Every TypeScript file under `dir`, at any depth (the architecture tests read `src/` with it). */
export function typeScriptFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return typeScriptFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}
