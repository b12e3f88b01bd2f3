import { parentPort, workerData } from 'node:worker_threads';
import type { AsideAnswer } from './file-aside';
import { FileError, loadFile } from './file-loader';

/** The worker thread of `loadFileAside`: reads and checks one file, answers its content or its problems. */
const { name, text } = workerData as { name: string; text: string };
let answer: AsideAnswer;
try {
  answer = { content: loadFile(name, text).content };
} catch (error) {
  answer = error instanceof FileError ? { problems: [...error.problems] } : { failure: (error as Error).stack ?? String(error) };
}
parentPort!.postMessage(answer);
