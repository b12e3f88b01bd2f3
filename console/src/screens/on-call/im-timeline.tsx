import { type Schemas } from '../../api/client';
import { dateTime } from '../../components/format';
import { Link } from '../../components/link';
import type { People } from './people';

export type ImDetail = Schemas['ImIncidentWithTimeline'];
export type ImEntry = ImDetail['timeline'][number];

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const IncidentLink = ({ id }: { id: string | null }) =>
  id ? <Link to={`/on-call/incidents/${encodeURIComponent(id)}`}>incident {id.slice(0, 8)}</Link> : <>another incident</>;

/** One timeline entry in words: what happened, by whom, with what its details say. */
function EntryText({ entry, people }: { entry: ImEntry; people: People }) {
  const by = entry.actorUserId ? ` by ${people.nameOf(entry.actorUserId)}` : '';
  const d = entry.details;
  switch (entry.kind) {
    case 'triggered':
      return (
        <>
          <strong>Triggered</strong>
          {by}
        </>
      );
    case 'occurrence':
      return (
        <>
          <strong>Occurred again</strong>
        </>
      );
    case 'acknowledged':
      return (
        <>
          <strong>Acknowledged</strong>
          {by}
        </>
      );
    case 'statusChanged':
      return (
        <>
          <strong>Status changed</strong> from {text(d.from) ?? '?'} to {text(d.to) ?? '?'}
          {by}
        </>
      );
    case 'resolved':
      return (
        <>
          <strong>Resolved</strong>
          {by}
        </>
      );
    case 'merged':
      return (
        <>
          <strong>Merged in</strong> <IncidentLink id={text(d.from)} />
          {typeof d.occurrences === 'number' ? ` (${d.occurrences} occurrence${d.occurrences === 1 ? '' : 's'})` : ''}
          {by}
        </>
      );
    case 'mergedInto':
      return (
        <>
          <strong>Merged into</strong> <IncidentLink id={text(d.into)} />
          {by}
        </>
      );
    case 'snoozed':
      return (
        <>
          <strong>Snoozed</strong> until {dateTime(text(d.until))}
          {by}
        </>
      );
    case 'escalated': {
      const paged = typeof d.level === 'number' ? `: level ${d.level} paged` : d.level === null ? ': no one paged' : '';
      const pages = typeof d.pages === 'number' ? ` (${d.pages} message${d.pages === 1 ? '' : 's'})` : '';
      return (
        <>
          <strong>Escalated</strong>
          {by}
          {paged}
          {pages}
        </>
      );
    }
    case 'responderAdded':
      return (
        <>
          <strong>Responder added</strong>: {text(d.userId) ? people.nameOf(text(d.userId)!) : 'a user'}
          {d.notified === true ? ', paged by e-mail' : ''}
          {by}
        </>
      );
    default:
      return (
        <>
          <strong>{entry.kind}</strong>
          {by}
        </>
      );
  }
}

/** The incident's story, oldest first: every entry the service recorded (and those an act's answer added). */
export function ImTimeline({ incident, people }: { incident: ImDetail; people: People }) {
  const entries = [...incident.timeline].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  return (
    <ol class="timeline" aria-label="Timeline">
      {entries.map((entry, index) => (
        <li key={`${entry.id}-${index}`} class="timeline-line">
          <time dateTime={entry.at}>{dateTime(entry.at)}</time>
          <span>
            <EntryText entry={entry} people={people} />
          </span>
        </li>
      ))}
    </ol>
  );
}

/** Who works on it, from the record and its timeline: who acknowledged, who was added, which levels were paged. */
export function respondersOf(incident: ImDetail): { added: string[]; paged: number[] } {
  const added = new Set<string>();
  const paged = new Set<number>();
  for (const entry of incident.timeline) {
    if (entry.kind === 'responderAdded' && typeof entry.details.userId === 'string') added.add(entry.details.userId);
    if (entry.kind === 'escalated' && typeof entry.details.level === 'number') paged.add(entry.details.level);
  }
  return { added: [...added], paged: [...paged].sort((a, b) => a - b) };
}

/**
 * The incident after an act, from the act's answer alone: its fields, and the timeline entry the
 * service recorded with the act (kind, by the caller, at the answer's `updatedAt`: the act's time),
 * so the page reads nothing again. Its details are what the request and the answer tell; a reload
 * shows the stored entry (an escalation's level, for one).
 */
export function afterImAct(
  shown: ImDetail,
  answer: Schemas['ImIncident'],
  entries: Array<Pick<ImEntry, 'kind' | 'details'>>,
  userId: string,
): ImDetail {
  let local = -shown.timeline.length - 1;
  const added = entries.map((entry) => ({ ...entry, id: local--, at: answer.updatedAt, actorUserId: userId }));
  return { ...shown, ...answer, timeline: [...shown.timeline, ...added] };
}
