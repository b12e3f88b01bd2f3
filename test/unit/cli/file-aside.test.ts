import { expect } from 'chai';
import { loadFileAside } from '../../../src/interfaces/cli/file-aside';
import { FileError, loadFile } from '../../../src/interfaces/cli/file-loader';

const entries = (count: number) =>
  Array.from(
    { length: count },
    (_, n) => `  - key: site-${n}\n    kind: website\n    url: https://x.test/${n}\n    checkInterval: 5\n    tags: [a, B]\n`,
  ).join('');

const refusal = async (work: () => Promise<unknown>): Promise<readonly string[]> => {
  try {
    await work();
  } catch (error) {
    if (error instanceof FileError) return error.problems;
    throw error;
  }
  throw new Error('the file was not refused');
};

describe('a file read and checked in a worker thread (loadFileAside)', function () {
  this.timeout(60_000);

  it("answers loadFile's content and lines for a file read in the worker", async () => {
    const text = `version: 1\ncustomer: 6f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b\ndefaults:\n  website:\n    checkInterval: 10\nmonitors:\n${entries(200)}`;
    const aside = await loadFileAside('wsm.yaml', text, 0);
    const here = loadFile('wsm.yaml', text);
    expect(aside.content).to.deep.equal(here.content);
    expect(aside.content.monitors).to.have.length(200);
    expect(aside.where(['monitors', 150, 'url'])).to.equal(here.where(['monitors', 150, 'url']));
    expect(aside.where(['monitors', 150, 'url'])).to.equal(`wsm.yaml:${6 + 150 * 5 + 3}`);
  });

  it("refuses a bad file with loadFile's problems, schema and YAML alike", async () => {
    const wrong = `version: 1\nmonitors:\n${entries(50)}  - key: x\n    kind: website\n    colour: red\n`;
    const problems = await refusal(() => loadFileAside('wsm.yaml', wrong, 0));
    expect(problems).to.deep.equal(await refusal(async () => loadFile('wsm.yaml', wrong)));
    expect(problems).to.include(`wsm.yaml:${2 + 50 * 5 + 3}: monitors[50].colour: Unrecognized key: "colour"`);
    const broken = 'version: 1\nmonitors:\n  - key: a\n   kind: [website\n';
    expect(await refusal(() => loadFileAside('wsm.yaml', broken, 0))).to.deep.equal(
      await refusal(async () => loadFile('wsm.yaml', broken)),
    );
  });
});
