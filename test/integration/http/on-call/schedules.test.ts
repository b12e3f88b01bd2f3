import { expect } from 'chai';
import ICAL from 'ical.js';
import { api, expectError } from '../../../support/http-client';
import { aCallerSet, type CallerSet } from '../../../support/callers';
import { setIncidentManagement } from '../../../support/im-fixtures';
import { aMember } from '../../../support/identity-fixtures';
import { testServer } from '../../../support/test-server';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const SCHEDULE_FIELDS = ['id', 'teamId', 'name', 'description', 'timezone', 'layers', 'overrides', 'createdAt', 'updatedAt'];

describe('IM schedules and on-call API (/api/im/schedules, /api/im/on-call)', () => {
  let set: CallerSet;
  let team: { id: string };
  let ann: string;
  let bob: string;
  /** A daily rotation of ann then bob, handing over at 09:00 Berlin time from 2026-03-20. */
  const berlinRotation = () => ({
    teamId: team.id,
    name: 'Primary',
    timezone: 'Europe/Berlin',
    layers: [{ name: 'Days', rotationType: 'daily', startsAt: '2026-03-20T09:00:00+01:00', users: [ann, bob] }],
  });

  before(async () => {
    set = await aCallerSet();
    await setIncidentManagement(set.organizationId, true);
    ann = set.org.user.id;
    bob = (await aMember(set.org, 'responder')).id;
    team = (
      await api('POST', '/api/im/teams', {
        token: set.admin,
        body: { name: 'SRE', members: [{ userId: ann, imRole: 'admin' }, { userId: bob }] },
      })
    ).body;
  });

  it('creates a schedule with a layer, reads it back, and lists it by team', async () => {
    const created = await api('POST', '/api/im/schedules', { token: set.admin, body: berlinRotation() });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.have.all.keys(SCHEDULE_FIELDS);
    expect(created.body.layers).to.deep.equal([
      {
        name: 'Days',
        rotationType: 'daily',
        shiftLength: null,
        startsAt: '2026-03-20T08:00:00.000Z',
        endsAt: null,
        users: [ann, bob],
        restrictions: [],
      },
    ]);
    expect((await api('GET', `/api/im/schedules/${created.body.id}`, { token: set.responder })).body).to.deep.equal(created.body);
    const listed = await api('GET', '/api/im/schedules', { token: set.admin, query: { teamId: team.id } });
    expect(listed.body.items.map((s: { id: string }) => s.id)).to.include(created.body.id);
  });

  it('answers who is on call at any instant, handing over at 09:00 local on both sides of the spring change', async () => {
    const schedule = (await api('POST', '/api/im/schedules', { token: set.admin, body: berlinRotation() })).body;
    const at = async (instant: string) => {
      const response = await api('GET', '/api/im/on-call', { token: set.responder, query: { scheduleId: schedule.id, at: instant } });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      return response.body.schedules[0].onCall;
    };
    // 2026-03-28 09:00 CET = 08:00Z; 2026-03-29 09:00 CEST = 07:00Z.
    // Saturday is the ninth shift (ann's); a fixed 24-hour shift would end at 08:00Z instead.
    const saturday = await at('2026-03-28T12:00:00Z');
    expect(saturday).to.deep.equal({ userId: ann, source: { type: 'layer', layerIndex: 0 }, until: '2026-03-29T07:00:00.000Z' });
    expect((await at('2026-03-29T07:30:00Z')).userId).to.equal(bob);
    expect(await at('2026-03-20T07:59:00Z')).to.equal(null);
  });

  it('puts an override on top, shows it in the timeline, and removes it', async () => {
    const schedule = (await api('POST', '/api/im/schedules', { token: set.admin, body: berlinRotation() })).body;
    const added = await api('POST', `/api/im/schedules/${schedule.id}/overrides`, {
      token: set.admin,
      body: { userId: bob, start: '2026-04-01T10:00:00Z', end: '2026-04-01T12:00:00Z' },
    });
    expect(added.status, JSON.stringify(added.body)).to.equal(200);
    const overrideId = added.body.override.id;
    expect(added.body.schedule.overrides).to.have.length(1);
    const now = await api('GET', '/api/im/on-call', { token: set.admin, query: { scheduleId: schedule.id, at: '2026-04-01T11:00:00Z' } });
    expect(now.body.schedules[0].onCall).to.deep.equal({
      userId: bob,
      source: { type: 'override', overrideId },
      until: '2026-04-01T12:00:00.000Z',
    });
    const timeline = await api('GET', `/api/im/schedules/${schedule.id}/on-call`, {
      token: set.admin,
      query: { from: '2026-04-01T07:00:00Z', to: '2026-04-01T13:00:00Z' },
    });
    // 2026-04-01 is ann's day (12 days after the first hand-off).
    expect(timeline.body.segments).to.deep.equal([
      { userId: ann, start: '2026-04-01T07:00:00.000Z', end: '2026-04-01T10:00:00.000Z', source: { type: 'layer', layerIndex: 0 } },
      { userId: bob, start: '2026-04-01T10:00:00.000Z', end: '2026-04-01T12:00:00.000Z', source: { type: 'override', overrideId } },
      { userId: ann, start: '2026-04-01T12:00:00.000Z', end: '2026-04-01T13:00:00.000Z', source: { type: 'layer', layerIndex: 0 } },
    ]);
    expect((await api('DELETE', `/api/im/schedules/${schedule.id}/overrides/${overrideId}`, { token: set.admin })).status).to.equal(204);
    expect((await api('GET', `/api/im/schedules/${schedule.id}`, { token: set.admin })).body.overrides).to.deep.equal([]);
  });

  it('changes the layers and deletes the schedule', async () => {
    const schedule = (await api('POST', '/api/im/schedules', { token: set.admin, body: berlinRotation() })).body;
    const changed = await api('PATCH', `/api/im/schedules/${schedule.id}`, {
      token: set.admin,
      body: {
        name: 'Nights',
        layers: [
          {
            name: 'N',
            rotationType: 'custom',
            shiftLength: { count: 12, unit: 'hours' },
            startsAt: '2026-03-20T20:00:00Z',
            users: [bob],
            restrictions: [{ daysOfWeek: [1, 2], startTime: '22:00', endTime: '06:00' }],
          },
        ],
      },
    });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect(changed.body.layers[0]).to.deep.include({ rotationType: 'custom', shiftLength: { count: 12, unit: 'hours' } });
    expect(changed.body.layers[0].restrictions).to.deep.equal([{ daysOfWeek: [1, 2], startTime: '22:00', endTime: '06:00' }]);
    expect((await api('DELETE', `/api/im/schedules/${schedule.id}`, { token: set.admin })).status).to.equal(204);
    expectError(await api('GET', `/api/im/schedules/${schedule.id}`, { token: set.admin }), 404, 'imScheduleNotFound');
  });

  it('answers imTeamNotFound, imScheduleNotFound and userNotFound for ids outside the organization', async () => {
    const stranger = await aCallerSet();
    await setIncidentManagement(stranger.organizationId, true);
    const theirTeam = (await api('POST', '/api/im/teams', { token: stranger.admin, body: { name: 'Theirs' } })).body;
    const theirSchedule = (await api('POST', '/api/im/schedules', { token: stranger.admin, body: { teamId: theirTeam.id, name: 'S' } }))
      .body;
    expectError(
      await api('POST', '/api/im/schedules', { token: set.admin, body: { ...berlinRotation(), teamId: theirTeam.id } }),
      404,
      'imTeamNotFound',
    );
    expectError(
      await api('POST', '/api/im/schedules', { token: set.admin, body: { ...berlinRotation(), teamId: 'nope' } }),
      404,
      'imTeamNotFound',
    );
    expectError(
      await api('POST', `/api/im/schedules/${theirSchedule.id}/overrides`, {
        token: set.admin,
        body: { userId: ann, start: '2026-04-01T10:00:00Z', end: '2026-04-01T12:00:00Z' },
      }),
      404,
      'imScheduleNotFound',
    );
    const mine = (await api('POST', '/api/im/schedules', { token: set.admin, body: berlinRotation() })).body;
    expectError(
      await api('POST', `/api/im/schedules/${mine.id}/overrides`, {
        token: set.admin,
        body: { userId: stranger.org.user.id, start: '2026-04-01T10:00:00Z', end: '2026-04-01T12:00:00Z' },
      }),
      404,
      'userNotFound',
    );
    const layerOutsider = berlinRotation();
    layerOutsider.layers[0]!.users = [stranger.org.user.id];
    expectError(await api('POST', '/api/im/schedules', { token: set.admin, body: layerOutsider }), 404, 'userNotFound');
  });

  it("answers imTeamWriteDenied to someone who is not an admin of the schedule's team, and 400 for a bad override span", async () => {
    const schedule = (await api('POST', '/api/im/schedules', { token: set.admin, body: berlinRotation() })).body;
    expectError(await api('POST', '/api/im/schedules', { token: set.responder, body: berlinRotation() }), 403, 'imTeamWriteDenied');
    expectError(
      await api('POST', `/api/im/schedules/${schedule.id}/overrides`, {
        token: set.responder,
        body: { userId: bob, start: '2026-04-01T10:00:00Z', end: '2026-04-01T12:00:00Z' },
      }),
      403,
      'imTeamWriteDenied',
    );
    expectError(
      await api('POST', `/api/im/schedules/${schedule.id}/overrides`, {
        token: set.admin,
        body: { userId: bob, start: '2026-04-01T12:00:00Z', end: '2026-04-01T10:00:00Z' },
      }),
      400,
      'validationFailed',
    );
    expectError(
      await api('POST', '/api/im/schedules', { token: set.admin, body: { ...berlinRotation(), timezone: 'Mars/Olympus' } }),
      400,
      'validationFailed',
    );
  });

  it('serves a schedule as a valid iCalendar feed at a secret URL stored only as a digest, and retires it when reissued', async () => {
    const schedule = (await api('POST', '/api/im/schedules', { token: set.admin, body: { ...berlinRotation(), name: 'Feed, test; one' } }))
      .body;
    const issued = await api('POST', `/api/im/schedules/${schedule.id}/calendar-feed`, { token: set.responder });
    expect(issued.status, JSON.stringify(issued.body)).to.equal(200);
    const { token, url } = issued.body as { token: string; url: string };
    expect(url.endsWith(`/api/im/calendar/${token}`)).to.equal(true);
    const { database } = await testServer();
    const stored = await database.sql.query<{ token_hash: string }>(
      sql`SELECT token_hash FROM im_calendar_feeds WHERE schedule_id = ${schedule.id}`,
    );
    expect(stored).to.have.length(1);
    expect(stored[0]!.token_hash).to.not.include(token);

    const feed = await api('GET', `/api/im/calendar/${token}`);
    expect(feed.status).to.equal(200);
    expect(feed.headers.get('content-type')).to.match(/^text\/calendar/);
    expect(feed.text.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).to.equal(true);
    const calendar = new ICAL.Component(ICAL.parse(feed.text));
    expect(calendar.getFirstPropertyValue('version')).to.equal('2.0');
    const events = calendar.getAllSubcomponents('vevent').map((e) => new ICAL.Event(e));
    expect(events.length).to.be.greaterThan(90);
    expect(new Set(events.map((e) => e.uid)).size).to.equal(events.length);
    for (const event of events) {
      expect(event.summary).to.match(/^On call: .+ \(Feed, test; one\)$/);
      expect(event.endDate.toJSDate().getTime()).to.be.greaterThan(event.startDate.toJSDate().getTime());
    }

    const again = await api('POST', `/api/im/schedules/${schedule.id}/calendar-feed`, { token: set.admin });
    expectError(await api('GET', `/api/im/calendar/${token}`), 404, 'calendarFeedNotFound');
    expect((await api('GET', `/api/im/calendar/${again.body.token}`)).status).to.equal(200);
  });

  it("serves the caller's own shifts across schedules, and answers calendarFeedNotFound once IM is switched off", async () => {
    const own = await aCallerSet();
    await setIncidentManagement(own.organizationId, true);
    const me = own.org.user.id;
    const other = (await aMember(own.org, 'responder')).id;
    const ownTeam = (await api('POST', '/api/im/teams', { token: own.admin, body: { name: 'T' } })).body;
    for (const name of ['One', 'Two']) {
      await api('POST', '/api/im/schedules', {
        token: own.admin,
        body: {
          teamId: ownTeam.id,
          name,
          layers: [{ name: 'L', rotationType: 'weekly', startsAt: '2026-01-05T09:00:00Z', users: [me, other] }],
        },
      });
    }
    const { token } = (await api('POST', '/api/im/on-call/calendar-feed', { token: own.admin })).body;
    const feed = await api('GET', `/api/im/calendar/${token}`);
    const events = new ICAL.Component(ICAL.parse(feed.text)).getAllSubcomponents('vevent').map((e) => new ICAL.Event(e));
    expect(events.length).to.be.greaterThan(0);
    expect(new Set(events.map((e) => /\((\w+)\)$/.exec(e.summary)![1]))).to.deep.equal(new Set(['One', 'Two']));
    const users = (await api('GET', '/api/users', { token: own.admin })).body.items as { id: string; name: string }[];
    const myName = users.find((u) => u.id === me)!.name;
    const otherName = users.find((u) => u.id === other)!.name;
    expect(myName).to.not.equal(otherName);
    expect(events.every((e) => e.summary.startsWith(`On call: ${myName} (`))).to.equal(true);

    await setIncidentManagement(own.organizationId, false);
    expectError(await api('GET', `/api/im/calendar/${token}`), 404, 'calendarFeedNotFound');
    expectError(await api('GET', '/api/im/calendar/wsmcal_unknown'), 404, 'calendarFeedNotFound');
  });
});
