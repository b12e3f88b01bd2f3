import { expect } from 'chai';
import { loadConfig } from '../../../src/main/config';

describe('configuration: the browser of scripted scenarios', () => {
  it("drives Debian's Chromium unless BROWSER_EXECUTABLE_PATH names another", () => {
    expect(loadConfig({}).browserExecutablePath).to.equal('/usr/bin/chromium');
    expect(loadConfig({ BROWSER_EXECUTABLE_PATH: '' }).browserExecutablePath).to.equal('/usr/bin/chromium');
    expect(loadConfig({ BROWSER_EXECUTABLE_PATH: '/opt/chrome/chrome' }).browserExecutablePath).to.equal('/opt/chrome/chrome');
  });
});
