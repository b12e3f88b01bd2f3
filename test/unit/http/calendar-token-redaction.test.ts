import { expect } from 'chai';
import { withoutCalendarToken } from '../../../src/interfaces/http/on-call/calendar-feed.router';
import { withoutPathSecrets } from '../../../src/main/http';

describe('calendar feed tokens in logs', () => {
  it('are cut out of feed URLs, and the host logs URLs without either kind of path secret', () => {
    expect(withoutCalendarToken('/api/im/calendar/wsmcal_secret?x=1')).to.equal('/api/im/calendar/[redacted]?x=1');
    expect(withoutCalendarToken('/api/im/schedules/abc/calendar-feed')).to.equal('/api/im/schedules/abc/calendar-feed');
    expect(withoutPathSecrets('/api/im/calendar/wsmcal_secret')).to.equal('/api/im/calendar/[redacted]');
    expect(withoutPathSecrets('/api/im/ingest/wsmi_secret')).to.equal('/api/im/ingest/[redacted]');
  });
});
