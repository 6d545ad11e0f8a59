// Looks for the suite's test secrets in every file the test suite wrote (issue 26, item 16):
// `npm test` runs vitest with TMPDIR set to a directory of its own, then this walks it. Every
// project, workspace home, log, History and HTTP Log file, report and mock file a test (or a
// process it started) wrote is there; a hit names the file and the secret's label, never its value.
//
// Files a test wrote itself as input to Parley (a collection carrying a literal password, a
// fixture copied in) are not Parley's doing: `INPUT_FILES` names them by path pattern, each with
// why, and they are not read.
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

/** Label -> value: every value the suite stores as a secret, a token, a password or a cookie value. */
export const TEST_SECRETS = JSON.parse(await readFile(new URL('./secrets.json', import.meta.url), 'utf8'));

/** Paths (relative to the scanned root, '/'-separated) of test inputs, with why they are skipped. */
const INPUT_FILES = [
  // Browser profiles: Chromium's own caches of the pages the e2e tests drove (the page never holds a stored secret; typed ones are the test's keystrokes).
  [/(^|\/)parley-chromium-[^/]+\//, 'a Chromium profile'],
  // Inputs tests write to import or to send (collections, environments, HAR, curl files, .http files) before Parley reads them.
  [/(^|\/)(inputs?|fixtures?)\//, 'a test input folder'],
  [/\.(postman_collection|postman_environment|postman_globals)\.json$/, 'a Postman export written as import input'],
  [/(^|\/)files\//, "a project's body files (bytes the user chose to send)"],
  [/(^|\/)imported-scripts\//, 'scripts kept verbatim as text, never run'],
  [/\.csv$/, 'a data file a test wrote for a run (Parley writes no CSV)'],
  [/-soapui-project\.xml$/, 'a SoapUI project written as import input'],
  // Vite's transform cache of the test sources themselves (they hold the secrets as literals).
  [/(^|\/)[A-Za-z0-9_-]{21}\/ssr\//, "vitest's transform cache of test sources"],
];

/**
 * Hits that are not Parley copying a secret, each by the secret's label and the file's path, with
 * why: data a test sent as data, or a server echoed back, which Parley keeps as it was.
 */
const NOT_LEAKS = [
  ['captured session value', /(^|\/)parley-e2e-cookies-[^/]+\/history\//, "the test's server echoes the Cookie header it received in its response body, which History keeps as received"],
  ['keychain password hunter2', /(^|\/)parley-curl-peer-[^/]+\/project\/apis\//, "a form field of the user's own curl command: a body is stored as typed (auth fields go to the secret store)"],
];

const MAX_FILE = 64 * 1024 * 1024;
const BINARY = /\.(png|jpe?g|gif|webp|ico|woff2?|ttf|wasm|zip|gz|br|node|so)$/i;

/** Every file under `root` (links not followed) whose bytes hold a test secret: `{ file, label }`. */
export async function scanForSecrets(root, secrets = TEST_SECRETS) {
  const needles = Object.entries(secrets).map(([label, value]) => [label, Buffer.from(value)]);
  const hits = [];
  let files = 0;
  let skipped = 0;
  let expected = 0;
  const walk = async (dir) => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return; // removed while we walked, or not ours to read
    }
    for (const entry of entries) {
      const abs = join(dir, entry.name);
      const rel = relative(root, abs).split('\\').join('/');
      if (entry.isDirectory()) {
        if (INPUT_FILES.some(([pattern]) => pattern.test(`${rel}/`))) skipped++;
        else await walk(abs);
        continue;
      }
      if (!entry.isFile() || BINARY.test(entry.name)) continue;
      if (INPUT_FILES.some(([pattern]) => pattern.test(rel))) {
        skipped++;
        continue;
      }
      const info = await lstat(abs).catch(() => null);
      if (!info?.isFile() || info.size > MAX_FILE) continue;
      const bytes = await readFile(abs).catch(() => null);
      if (!bytes) continue;
      files++;
      for (const [label, needle] of needles) {
        if (!bytes.includes(needle)) continue;
        if (NOT_LEAKS.some(([l, pattern]) => l === label && pattern.test(rel))) expected++;
        else hits.push({ file: rel, label });
      }
    }
  };
  await walk(root);
  return { files, skipped, expected, hits };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const root = process.argv[2];
  if (!root) {
    console.error('usage: node test/secrets-scan/scan.mjs <dir the suite wrote in>');
    process.exit(2);
  }
  const { files, skipped, expected, hits } = await scanForSecrets(root);
  console.log(`secrets scan: ${files} files read under ${root}, ${skipped} test inputs skipped, ${expected} known non-leaks, ${hits.length} hits`);
  for (const hit of hits) console.log(`  ${hit.label} in ${hit.file}`);
  process.exit(hits.length > 0 ? 1 : 0);
}
