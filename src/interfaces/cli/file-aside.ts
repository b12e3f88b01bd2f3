import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { FileError, loadFile, locator, type LoadedFile } from './file-loader';
import type { WsmFile } from './file-schema';

/**
 * A file read and checked beside the service's reads: a large file's YAML parse and schema check
 * (about 0.3-0.45 s for 10,000 monitors) run in a worker thread, so the main thread keeps paging
 * the service meanwhile; a small file is read on the main thread (a worker costs more than it
 * saves). The outcome is `loadFile`'s: the same content, the same FileError with the same lines.
 */

/** Below this many characters a file is read on the main thread. */
export const ASIDE_MIN_CHARS = 256 * 1024;

/** What the worker answers. */
export type AsideAnswer = { content: WsmFile } | { problems: string[] } | { failure: string };

export function loadFileAside(name: string, text: string, minChars = ASIDE_MIN_CHARS): Promise<LoadedFile> {
  if (text.length < minChars) return Promise.resolve().then(() => loadFile(name, text));
  return inWorker(name, text).then(
    (answer) => {
      if ('problems' in answer) throw new FileError(answer.problems);
      if ('failure' in answer) throw new Error(answer.failure);
      return { name, content: answer.content, where: locator(name, text) };
    },
    // A worker that cannot start (a platform without threads): the main thread reads the file.
    () => loadFile(name, text),
  );
}

/**
 * The worker's entry beside this module, compiled (.js) or, when the CLI runs from its TypeScript
 * source (the tests), through tsx's require hook, which a worker does not inherit.
 */
function inWorker(name: string, text: string): Promise<AsideAnswer> {
  const entry = join(__dirname, `file-worker${extname(__filename)}`);
  const boot = `${extname(__filename) === '.ts' ? "require('tsx/cjs');" : ''}require(${JSON.stringify(entry)});`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(boot, { eval: true, workerData: { name, text } });
    worker.once('message', (answer: AsideAnswer) => {
      resolve(answer);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the file's worker stopped (${code})`)));
  });
}
