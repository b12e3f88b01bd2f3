/**
 * Where in a request body an error is: a JSON pointer (RFC 6901), `/config/url`, `/steps/0/url`,
 * `/intervalSeconds`; '' is the whole body. The rules name a field in their own words, a dotted
 * path (`config.url`, `steps[0].url`) or the path of a schema issue, and the envelope answers this
 * pointer in `data.field`; a name that already is a pointer is kept as it is.
 */
export function fieldPointer(field: string | readonly PropertyKey[]): string {
  if (typeof field === 'string' && (field === '' || field.startsWith('/'))) return field;
  const parts =
    typeof field === 'string'
      ? field
          .replace(/\[(\d+)\]/g, '.$1')
          .split('.')
          .filter((part) => part !== '')
      : field.map(String);
  return parts.map((part) => `/${part.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** The path a JSON pointer names, one element per reference token. */
export function pointerPath(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}
