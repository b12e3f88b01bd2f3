'use strict';
/**
 * The digest a build step keeps beside its output (a stamp): the names and contents of its input
 * files, sorted, so it depends on content, not on file times or directory order. Used by
 * `npm start`'s service build (build-if-changed.cjs) and the console's (build-console.cjs).
 */
const { createHash } = require('node:crypto');
const { existsSync, readdirSync, readFileSync, statSync } = require('node:fs');
const path = require('node:path');

/** Every file under the `inputs` (folders walked, files taken as they are) below `root`, sorted; `skip` leaves generated files out. */
function inputFiles(root, inputs, skip = () => false) {
  const files = [];
  const walk = (relative) => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile() && !skip(child)) files.push(child);
    }
  };
  for (const input of inputs) {
    const absolute = path.join(root, input);
    if (!existsSync(absolute)) continue;
    if (statSync(absolute).isDirectory()) walk(input);
    else files.push(input);
  }
  return files.sort();
}

/** The SHA-256 of those files' names and contents. */
function sourceDigest(root, inputs, skip) {
  const hash = createHash('sha256');
  for (const file of inputFiles(root, inputs, skip)) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(root, file)))
      .update('\0');
  }
  return hash.digest('hex');
}

module.exports = { inputFiles, sourceDigest };
