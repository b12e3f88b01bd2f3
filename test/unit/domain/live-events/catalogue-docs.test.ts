import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LIVE_EVENT_CATALOGUE, LIVE_EVENT_KINDS } from '../../../../src/domain/live-events/catalogue';
import { liveEventKindsMarkdown, liveEventKindsText } from '../../../../src/domain/live-events/describe';
import { describeApi } from '../../../../src/main/api-description';

const START = '<!-- live-event kinds: generated from the catalogue -->';
const END = '<!-- end of the generated kinds -->';

describe('live-event catalogue: the descriptions derive from it', () => {
  it("docs/live-events.md's kinds section is the catalogue's (regenerate it with liveEventKindsMarkdown)", () => {
    const doc = readFileSync(path.join(__dirname, '../../../../docs/live-events.md'), 'utf8');
    const section = doc.slice(doc.indexOf(START) + START.length, doc.indexOf(END)).trim();
    expect(section).to.equal(liveEventKindsMarkdown());
  });

  it("the stream's OpenAPI description names every kind and every field of its payload", () => {
    const document = describeApi() as { paths: Record<string, { get?: { description?: string } }> };
    const description = String(document.paths['/api/events']?.get?.description);
    expect(description).to.include(liveEventKindsText());
    for (const kind of LIVE_EVENT_KINDS) {
      expect(description).to.include(`\`${kind}\``);
      for (const field of Object.keys(LIVE_EVENT_CATALOGUE[kind].fields)) expect(description).to.include(`${field} (`);
    }
  });
});
