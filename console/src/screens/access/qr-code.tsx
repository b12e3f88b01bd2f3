import { encodeQR } from 'qr';

/**
 * A QR code drawn in the page as SVG (paulmillr's `qr` encodes; no image service, no innerHTML):
 * one path of unit squares on a light quiet zone, so it scans in the dark scheme too.
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const modules = encodeQR(text, 'raw', { ecc: 'medium' });
  const size = modules.length;
  const quiet = 2; // with the two modules the encoder leaves, the four the standard asks for
  let path = '';
  modules.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path += `M${x + quiet} ${y + quiet}h1v1h-1z`;
    }),
  );
  const side = size + quiet * 2;
  return (
    <svg class="qr-code" viewBox={`0 0 ${side} ${side}`} role="img" aria-label={label} shape-rendering="crispEdges">
      <rect width={side} height={side} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
