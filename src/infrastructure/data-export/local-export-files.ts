import { access, rm } from 'node:fs/promises';
import { constants } from 'node:fs';
import { join } from 'node:path';
import type { ExportFiles } from '../../application/data-export/ports';

/** Archives under DATA_DIR/exports (0700: they hold a whole organization's data). */
export class LocalExportFiles implements ExportFiles {
  constructor(private readonly dataDir: string) {}

  pathFor(exportId: string): string {
    return join(this.dataDir, 'exports', `${exportId}.zip`);
  }

  async remove(path: string): Promise<void> {
    await rm(path, { force: true });
    await rm(`${path}.partial`, { force: true });
  }

  async readable(path: string): Promise<boolean> {
    try {
      await access(path, constants.R_OK);
      return true;
    } catch {
      return false;
    }
  }
}
