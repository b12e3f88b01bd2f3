import fs from 'node:fs/promises';
import path from 'node:path';
import type { ReportArchive } from '../../application/reports/ports';

/**
 * PDFs as files under DATA_DIR/reports/<organization id>/. A file is written under a temporary name
 * and renamed, so a reader never sees half a PDF; the absolute path is what a run records (and what
 * the delivery ledger attaches at send time).
 */
export class FileReportArchive implements ReportArchive {
  private readonly root: string;

  constructor(dataDir: string) {
    this.root = path.resolve(dataDir, 'reports');
  }

  async store(organizationId: number, name: string, bytes: Uint8Array): Promise<string> {
    const dir = path.join(this.root, String(organizationId));
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, path.basename(name));
    const partial = `${file}.partial`;
    await fs.writeFile(partial, bytes, { mode: 0o600 });
    await fs.rename(partial, file);
    return file;
  }

  async read(file: string): Promise<Uint8Array | null> {
    // Only files of the archive: a recorded path never reaches outside it.
    const resolved = path.resolve(file);
    if (!resolved.startsWith(`${this.root}${path.sep}`)) return null;
    try {
      return new Uint8Array(await fs.readFile(resolved));
    } catch {
      return null;
    }
  }
}
