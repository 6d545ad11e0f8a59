/**
 * A job's thread loads its own format's code only (importer.ts, `convert`): built as
 * scripts/build.mjs builds the importer (esbuild, code splitting), what run-job.ts and the HAR
 * converter load before their first dynamic import holds no other format's readers. A static
 * import of a converter, of YAML or of the XML reader from a registry or detect module would
 * put them back into every job (a HAR job's thread compiled 3 MB of them; bench/README.md,
 * "HAR import").
 */
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

const OTHER_FORMATS = [
  /node_modules\/(yaml|js-yaml|swagger2openapi|postman-collection|curlconverter|openapi-sampler|@apidevtools|fast-xml-parser|libxml2-wasm|fontoxpath|slimdom|ajv)\//,
  /processes\/importer\/engine\/(openapi|postman|wsdl|soapui|curl|definition-update)\/(?!(importer|detect)\.ts$)/,
  /protocol\/wsdl\//,
  /load\/parse-text\.ts$/,
];

/** The inputs of `entry`'s output and of every output it imports statically. */
function staticInputs(meta: Metafile, entry: string): string[] {
  const outputs = Object.entries(meta.outputs);
  const start = outputs.find(([, out]) => out.entryPoint === entry);
  if (!start) throw new Error(`${entry} is not an output of the build`);
  const seen = new Set<string>();
  const inputs = new Set<string>();
  const walk = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    const out = meta.outputs[path]!;
    for (const input of Object.keys(out.inputs)) inputs.add(input);
    for (const imported of out.imports) if (imported.kind === 'import-statement' && !imported.external) walk(imported.path);
  };
  walk(start[0]);
  return [...inputs];
}

describe('what an import job loads', () => {
  it("a HAR job's thread loads run-job.ts and the HAR converter, and no other format's code", async () => {
    const { metafile } = await build({
      entryPoints: ['processes/importer/job-worker.ts'],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      outdir: 'lazy-formats-out',
      write: false,
      metafile: true,
      logLevel: 'silent',
      external: ['isolated-vm', '@napi-rs/keyring', 'msgpackr-extract', 'kerberos', 'esbuild', 'typescript', 'electron', 'tree-sitter', 'tree-sitter-bash'],
    });
    const everything = Object.keys(metafile.inputs);
    // The check can fail: the build as a whole holds the other formats' code.
    expect(everything.filter((input) => OTHER_FORMATS.some((re) => re.test(input))).length).toBeGreaterThan(50);
    for (const entry of ['processes/importer/engine/run-job.ts', 'processes/importer/engine/har/convert.ts']) {
      const loaded = staticInputs(metafile, entry);
      expect(loaded, entry).toContain(entry);
      expect(
        loaded.filter((input) => OTHER_FORMATS.some((re) => re.test(input))),
        entry,
      ).toEqual([]);
    }
  }, 60_000);
});
