import { readFileSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { join, sep } from 'node:path';
import WebSocket from 'ws';
import { parseDocument } from 'yaml';
import { bundleBrowser, bundleNode, cleanup, importFile, launchChromium, machine, median, ms, openUi, startParley, summarize, tempDir } from './fixtures/harness.mjs';
const RUNS = Number(process.argv[2] ?? 3);
const APIS = 4;
const FOLDERS_PER_API = 50;
const REQUESTS_PER_FOLDER = 25;
const TOTAL = APIS * FOLDERS_PER_API * REQUESTS_PER_FOLDER;
const PROJECT_NAME = 'Big';

const work = await tempDir('big-project');
const projectDir = '/work/probe/big';
const built = await bundleNode(
  { kit: 'bench/fixtures/project-kit.ts', 'bus-kit': 'bench/fixtures/bus-kit.ts', 'yaml-kit': 'protocol/project/yaml-file.ts' },
  join(work, 'build'),
);
const kit = await importFile(built.kit);
const yamlKit = await importFile(built['yaml-kit']);
const busKit = await importFile(built['bus-kit']);
const pingerScript = await bundleBrowser('bench/fixtures/page-pinger.ts');
// --- 0. generate ---------------------------------------------------------------------------

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];
function request(api, folder, i) {
  const method = METHODS[i % METHODS.length];
  const body = kit.emptyBody();
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
    body.kind = 'raw';
    body.raw = { language: 'json', text: JSON.stringify({ name: `item ${i}`, tags: ['a', 'b'], owner: { id: i, team: `team-${folder}` } }, null, 2) };
  }
  return {
    version: 1,
    id: `r_big_${api}_${folder}_${i}`,
    name: `${method} item ${i} of area ${folder}`,
    method,
    url: `/area-${folder}/items/{id}`,
    pathParams: [{ name: 'id', value: String(i) }],
    query: [
      { name: 'limit', value: '20', enabled: true },
      { name: 'expand', value: 'owner', enabled: false },
    ],
    headers: [
      { name: 'Accept', value: 'application/json', enabled: true },
      { name: 'X-Request-Id', value: '${requestId}', enabled: true },
    ],
    body,
    auth: { type: 'inherit' },
    settings: kit.defaultSettings(),
  };
}

let started = performance.now();
const writer = await kit.ProjectStore.open(projectDir, { create: true, name: PROJECT_NAME });
for (let a = 0; a < APIS; a++) {
  const api = await writer.createApi({ name: `Service ${a + 1}`, baseUrl: `http://127.0.0.1:4010/s${a + 1}` });
  for (let f = 0; f < FOLDERS_PER_API; f++) {
    const folder = `area-${String(f).padStart(2, '0')}`;
    const reserved = writer.nameClaims();
    const changes = [];
    for (let i = 0; i < REQUESTS_PER_FOLDER; i++) changes.push(writer.newRequestChange(api.id, folder, request(a, f, i), reserved));
    await writer.commit(changes); // one atomic save per folder, as an import writes a batch
  }
}
await writer.close();
console.log('done');
