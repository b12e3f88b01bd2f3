import { dump } from 'js-yaml';

/**
 * A wsm file's text: `comment` lines first (each as `# line`), then the content as YAML (js-yaml, the
 * library that reads the files): no line folding, repeated objects written out rather than aliased,
 * absent (undefined) fields left out.
 */
export function yamlText(content: unknown, comment: readonly string[]): string {
  const header = comment.map((line) => `# ${line}\n`).join('');
  return `${header}${dump(content, { lineWidth: -1, noRefs: true, skipInvalid: true })}`;
}
