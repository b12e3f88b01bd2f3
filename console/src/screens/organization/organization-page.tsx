import { Link } from '../../components/link';
import type { SettingsItem } from '../area';

/** Where the organization's settings are: one link per place the user may open, and what it holds. */
export function OrganizationPage({ places }: { places: readonly SettingsItem[] }) {
  return (
    <section aria-labelledby="organization-title">
      <h1 id="organization-title">Organization</h1>
      {places.length === 0 ? (
        <p>Nothing here is open to your role.</p>
      ) : (
        <ul class="places" aria-label="Settings">
          {places.map((place) => (
            <li key={place.to}>
              <Link to={place.to}>{place.label}</Link>
              <p>{place.description}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
