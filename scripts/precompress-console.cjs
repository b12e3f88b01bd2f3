'use strict';
/**
 * The console's assets compressed once, at build, beside each file: `<file>.br` (Brotli, its best
 * quality) and `<file>.gz` (gzip, level 9), for the text types a browser loads (scripts, styles,
 * SVG, JSON, HTML). The service sends the variant the browser accepts (express-static-gzip); a
 * variant no smaller than its file is not written. Run by scripts/build-console.cjs after Vite.
 */
const { readdirSync, readFileSync, writeFileSync, statSync } = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const TEXT = /\.(js|mjs|css|svg|json|html|txt|webmanifest)$/;

function precompress(dir) {
  let written = 0;
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) {
      written += precompress(file);
      continue;
    }
    if (!TEXT.test(name)) continue;
    const body = readFileSync(file);
    const variants = [
      [
        '.br',
        zlib.brotliCompressSync(body, {
          params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
        }),
      ],
      ['.gz', zlib.gzipSync(body, { level: 9 })],
    ];
    for (const [suffix, packed] of variants) {
      if (packed.length >= body.length) continue;
      writeFileSync(file + suffix, packed);
      written += 1;
    }
  }
  return written;
}

module.exports = { precompress };

if (require.main === module) {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: precompress-console.cjs <dir>');
  process.stdout.write(`precompressed ${precompress(dir)} files in ${dir}\n`);
}
