/**
 * The text colour of a status page's header on its brand colour: black or white, whichever reads
 * better (`domain/shared/colour-contrast.ts`). The public page's header and the console's preview of
 * it both ask this one function (the console imports it from the domain).
 */
export { readableTextOn } from '../shared/colour-contrast';
