import { expect } from 'chai';
import { IM_TRANSITIONS } from '../../../../src/domain/incident-management/im-incident';
import { codeOf } from '../../../support/expect-app-error';
import { anImIncident } from '../../../support/builders/im-incident';

const T0 = new Date('2026-11-23T10:00:00Z');
const later = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

describe('IM incident state machine', () => {
  it('starts triggered with a triggered timeline entry', () => {
    const incident = anImIncident();
    expect(incident.status).to.equal('triggered');
    expect(incident.pending.map((e) => e.kind)).to.deep.equal(['triggered']);
  });

  it('lists exactly the seven legal moves in one table', () => {
    expect(IM_TRANSITIONS.map((t) => `${t.action}:${t.from}->${t.to}`)).to.have.members([
      'acknowledge:triggered->acknowledged',
      'changeStatus:triggered->acknowledged',
      'changeStatus:acknowledged->triggered',
      'resolve:triggered->resolved',
      'resolve:acknowledged->resolved',
      'merge:triggered->merged',
      'merge:acknowledged->merged',
    ]);
  });

  describe('acknowledge', () => {
    it('triggered -> acknowledged, recording who and when', () => {
      const incident = anImIncident();
      incident.acknowledge('u1', later(1));
      expect(incident).to.include({ status: 'acknowledged', acknowledgedByUserId: 'u1' });
      expect(incident.acknowledgedAt).to.deep.equal(later(1));
      expect(incident.pending.at(-1)).to.include({ kind: 'acknowledged', actorUserId: 'u1' });
    });
    it('acknowledged -> acknowledged is imIncidentInvalidStatusTransition (equals current)', () => {
      expect(codeOf(() => anImIncident('acknowledged').acknowledge('u1', later(1)))).to.equal('imIncidentInvalidStatusTransition');
    });
    for (const closed of ['resolved', 'merged'] as const) {
      it(`${closed} -> acknowledged is imIncidentAlreadyClosed`, () => {
        expect(codeOf(() => anImIncident(closed).acknowledge('u1', later(1)))).to.equal('imIncidentAlreadyClosed');
      });
    }
  });

  describe('status change', () => {
    it('triggered -> acknowledged', () => {
      const incident = anImIncident();
      incident.changeStatus('acknowledged', 'u1', later(1));
      expect(incident.status).to.equal('acknowledged');
      expect(incident.pending.at(-1)).to.deep.include({ kind: 'statusChanged', details: { from: 'triggered', to: 'acknowledged' } });
    });
    it('acknowledged -> triggered (re-triggered), clearing the acknowledgement', () => {
      const incident = anImIncident();
      incident.acknowledge('u1', later(1));
      incident.changeStatus('triggered', 'u2', later(2));
      expect(incident).to.include({ status: 'triggered', acknowledgedAt: null, acknowledgedByUserId: null });
    });
    it('to the current status is imIncidentInvalidStatusTransition', () => {
      expect(codeOf(() => anImIncident().changeStatus('triggered', 'u1', later(1)))).to.equal('imIncidentInvalidStatusTransition');
    });
    for (const target of ['resolved', 'merged'] as const) {
      it(`to ${target} is imIncidentInvalidStatusTransition (closing has its own endpoint)`, () => {
        expect(codeOf(() => anImIncident().changeStatus(target, 'u1', later(1)))).to.equal('imIncidentInvalidStatusTransition');
        expect(codeOf(() => anImIncident('acknowledged').changeStatus(target, 'u1', later(1)))).to.equal(
          'imIncidentInvalidStatusTransition',
        );
      });
    }
    for (const closed of ['resolved', 'merged'] as const) {
      it(`from ${closed} is imIncidentAlreadyClosed`, () => {
        expect(codeOf(() => anImIncident(closed).changeStatus('triggered', 'u1', later(1)))).to.equal('imIncidentAlreadyClosed');
      });
    }
  });

  describe('resolve', () => {
    for (const from of ['triggered', 'acknowledged'] as const) {
      it(`${from} -> resolved, clearing a snooze`, () => {
        const incident = anImIncident(from);
        incident.snooze(later(30), 'u1', later(1));
        incident.resolve('u1', later(2));
        expect(incident).to.include({ status: 'resolved', resolvedByUserId: 'u1', snoozedUntil: null });
        expect(incident.resolvedAt).to.deep.equal(later(2));
      });
    }
    for (const closed of ['resolved', 'merged'] as const) {
      it(`${closed} -> resolved is imIncidentAlreadyClosed`, () => {
        expect(codeOf(() => anImIncident(closed).resolve('u1', later(1)))).to.equal('imIncidentAlreadyClosed');
      });
    }
  });

  describe('merge', () => {
    for (const from of ['triggered', 'acknowledged'] as const) {
      it(`${from} -> merged into an open incident, which takes its occurrences`, () => {
        const source = anImIncident(from);
        source.occurrenceCount = 3;
        const target = anImIncident();
        source.mergeInto(target, 'u1', later(1));
        expect(source).to.include({ status: 'merged', mergedIntoId: target.publicId });
        expect(target.occurrenceCount).to.equal(4);
        expect(target.pending.at(-1)).to.deep.include({ kind: 'merged', details: { from: source.publicId, occurrences: 3 } });
      });
    }
    it('into itself is imIncidentInvalidStatusTransition', () => {
      const incident = anImIncident();
      expect(codeOf(() => incident.mergeInto(incident, 'u1', later(1)))).to.equal('imIncidentInvalidStatusTransition');
    });
    it('into a closed incident is imIncidentAlreadyClosed', () => {
      expect(codeOf(() => anImIncident().mergeInto(anImIncident('resolved'), 'u1', later(1)))).to.equal('imIncidentAlreadyClosed');
    });
    for (const closed of ['resolved', 'merged'] as const) {
      it(`${closed} -> merged is imIncidentAlreadyClosed`, () => {
        expect(codeOf(() => anImIncident(closed).mergeInto(anImIncident(), 'u1', later(1)))).to.equal('imIncidentAlreadyClosed');
      });
    }
  });

  describe('snooze', () => {
    it('sets snoozedUntil without changing the status', () => {
      const incident = anImIncident();
      incident.snooze(later(60), 'u1', T0);
      expect(incident.status).to.equal('triggered');
      expect(incident.snoozedUntil).to.deep.equal(later(60));
      expect(incident.isSnoozedAt(later(59))).to.equal(true);
      expect(incident.isSnoozedAt(later(60))).to.equal(false);
    });
    it('accepts exactly 7 days ahead', () => {
      const incident = anImIncident();
      incident.snooze(later(7 * 24 * 60), 'u1', T0);
      expect(incident.snoozedUntil).to.deep.equal(later(7 * 24 * 60));
    });
    for (const [label, until] of [
      ['now', T0],
      ['the past', later(-1)],
      ['over 7 days ahead', new Date(later(7 * 24 * 60).getTime() + 1000)],
    ] as const) {
      it(`refuses ${label} with imSnoozeRangeInvalid`, () => {
        expect(codeOf(() => anImIncident().snooze(until, 'u1', T0))).to.equal('imSnoozeRangeInvalid');
      });
    }
    it('refuses a closed incident with imIncidentAlreadyClosed', () => {
      expect(codeOf(() => anImIncident('resolved').snooze(later(5), 'u1', T0))).to.equal('imIncidentAlreadyClosed');
    });
  });
});
