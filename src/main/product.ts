import { readFileSync } from 'node:fs';

/**
 * This package's name and version, read from its package.json (resolved through the package's own
 * "./package.json" export, so the same line works from src/ under tsx and from dist/ once built).
 */
export const PRODUCT: { readonly name: string; readonly version: string } = (() => {
  const manifest = JSON.parse(readFileSync(require.resolve('monitoring-service/package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  return { name: manifest.name, version: manifest.version };
})();
