import { useBrand } from './brand';
import './branding.css';

/**
 * The console's name where the platform's used to be: the organization's name and logo on its
 * white-label host, the platform's name elsewhere. Nothing but a neutral word while the look is read.
 */
export function BrandMark() {
  const brand = useBrand();
  if (!brand) return <span class="brand-name">Home</span>;
  return (
    <span class="brand-mark">
      {brand.logo ? <img class="brand-logo" src={brand.logo} alt="" /> : null}
      <span class="brand-name">{brand.name}</span>
    </span>
  );
}
