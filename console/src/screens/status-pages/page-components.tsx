import { useState } from 'preact/hooks';
import type { OverviewRow } from '../../monitors/monitor-rows';
import { Field } from '../../components/field';
import { shownName, type DraftGroup } from './draft';

const KIND_WORDS: Record<string, string> = { monitor: 'monitor', customerDomain: 'domain', customerIp: 'IP address' };

/**
 * The page's components as the API models them: named groups, in order, each a list of records
 * (monitors here; watched customer domains and IPs are shown and kept, added through the API) with
 * an optional name of their own. Changes stay in the form until the page is saved.
 */
export function PageComponents({
  groups,
  monitors,
  onChange,
  disabled,
}: {
  groups: DraftGroup[];
  monitors: OverviewRow[];
  onChange: (groups: DraftGroup[]) => void;
  disabled: boolean;
}) {
  const [groupName, setGroupName] = useState('');
  const [picked, setPicked] = useState<Record<number, string>>({});
  const update = (index: number, group: DraftGroup) => onChange(groups.map((g, i) => (i === index ? group : g)));
  const used = new Set(groups.flatMap((g) => g.components.map((c) => c.id)));
  const addGroup = () => {
    if (groupName.trim() === '') return;
    onChange([...groups, { name: groupName.trim(), components: [] }]);
    setGroupName('');
  };
  return (
    <fieldset class="sp-components" disabled={disabled}>
      <legend>Components</legend>
      {groups.map((group, gi) => {
        const choice = picked[gi] ?? '';
        const add = () => {
          const monitor = monitors.find((m) => m.publicId === choice);
          if (!monitor) return;
          update(gi, {
            ...group,
            components: [...group.components, { type: 'monitor', id: monitor.publicId, name: null, recordName: monitor.name }],
          });
          setPicked({ ...picked, [gi]: '' });
        };
        return (
          <div class="sp-group" key={gi}>
            <Field label={`Group ${gi + 1} name`} id={`group-${gi}-name`}>
              <input id={`group-${gi}-name`} value={group.name} onInput={(e) => update(gi, { ...group, name: e.currentTarget.value })} />
            </Field>
            <ul aria-label={`Components of ${group.name || `group ${gi + 1}`}`}>
              {group.components.map((component, ci) => (
                <li key={component.id}>
                  <span>
                    {shownName(component)} <span class="muted">({KIND_WORDS[component.type] ?? component.type})</span>
                  </span>
                  <button
                    type="button"
                    class="secondary"
                    aria-label={`Remove ${shownName(component)} from ${group.name || `group ${gi + 1}`}`}
                    onClick={() => update(gi, { ...group, components: group.components.filter((_, i) => i !== ci) })}
                  >
                    Remove
                  </button>
                </li>
              ))}
            </ul>
            <div class="sp-inline">
              <Field label={`Monitor to add to ${group.name || `group ${gi + 1}`}`} id={`group-${gi}-monitor`}>
                <select id={`group-${gi}-monitor`} value={choice} onChange={(e) => setPicked({ ...picked, [gi]: e.currentTarget.value })}>
                  <option value="">Choose a monitor…</option>
                  {monitors
                    .filter((m) => !used.has(m.publicId))
                    .map((m) => (
                      <option key={m.publicId} value={m.publicId}>
                        {m.name} ({m.customerName})
                      </option>
                    ))}
                </select>
              </Field>
              <button type="button" onClick={add} disabled={choice === ''}>
                Add component
              </button>
              <button type="button" class="secondary" onClick={() => onChange(groups.filter((_, i) => i !== gi))}>
                Remove group
              </button>
            </div>
          </div>
        );
      })}
      <div class="sp-inline">
        <Field label="New group name" id="new-group-name">
          <input
            id="new-group-name"
            value={groupName}
            onInput={(e) => setGroupName(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                addGroup();
              }
            }}
          />
        </Field>
        <button type="button" onClick={addGroup}>
          Add group
        </button>
      </div>
    </fieldset>
  );
}
