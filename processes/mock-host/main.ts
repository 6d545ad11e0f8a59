/**
 * The mock-host process: serves one mock with the mock engine (node:http, isolated-vm for
 * dispatch.ts), checks requests with the project's checker engine in worker threads (each check
 * on its 1000 ms budget, so no request can hold the listener), and puts its log on the bus
 * as `mockHost.logged` batches. A host that may run dispatch.ts is started with --no-node-snapshot,
 * as isolated-vm asks on Node 20; one that never will (no operation dispatches By script) keeps
 * Node's snapshot and boots faster (MockRunner decides).
 *
 * With --diagnostics it serves only `mocks.diagnose` (the dispatch.ts editor's type check): the
 * TypeScript compiler is big and slow to load, so it runs in a process of its own, started when
 * an editor first asks, never in the supervisor or beside a mock's listener.
 */
import { setImmediate as turn } from 'node:timers/promises';
import { hasCode } from '../../protocol/errors.js';
import type { MockLogEntry } from '../../protocol/model/mock.js';
import { LOG_BYTES_KEPT, LOG_ENTRIES_KEPT, newestWithin } from '../../protocol/mock-log-bounds.js';
import type { ReqOf, ResOf } from '../../protocol/messages.js';
import type { Peer } from '../../protocol/peer.js';
import { connectToSupervisor } from '../runtime/child.js';
// Single engine modules, not its index, which also reaches the TypeScript compiler.
import { MockServer, type LogRecord } from './engine/mock-server.js';
import { openApiDefinition, readContract, type Contract } from './engine/contract.js';
import { MockCheckPool } from './check-pool.js';
import { contractWarnings } from './engine/mock-findings.js';
import type { SoapContract } from './engine/soap/soap-contract.js';
import type { SoapRoutingFactory } from './engine/soap/soap-endpoint.js';
import type { ContractChecker } from './engine/contract.js';

type Config = ReqOf<'mockHost.start'>;

let server: MockServer | null = null;
let contract: { key: string; value: Contract } | null = null;
let soapContract: { key: string; value: SoapContract } | null = null;
let peer: Peer | null = null;
/** Request checks that could hold the listener, and slow match conditions, run here on a budget (threads start with the first). */
const checks = new MockCheckPool();

/** Log entries go out every FLUSH_MS as one event; past BATCH_MAX entries or BATCH_BYTES the oldest of a batch are dropped. */
const FLUSH_MS = 50;
/**
 * A batch of this many entries (some 4,000 requests/s) means a load test: the next batch then
 * waits BUSY_FLUSH_MS. The newest entries still arrive, twice a second, and building, encoding
 * and decoding entries no longer takes CPU from the requests themselves. The supervisor keeps only
 * the newest 500 per mock and passes on at most 200 per event (protocol/mock-log-bounds.ts), so it
 * shows what it would have shown, only less often.
 */
const BUSY_ENTRIES = 200;
const BUSY_FLUSH_MS = 500;
/** The supervisor keeps the newest 500 per mock within LOG_BYTES_KEPT, so a batch never needs more. */
const BATCH_MAX = LOG_ENTRIES_KEPT;
const BATCH_BYTES = LOG_BYTES_KEPT;

/**
 * Holds the exchanges of the next batch as records: an entry (masking, previews, the ISO time)
 * is built only for the ones actually sent, so under load most requests never build one. Held
 * records are bounded in count and in bytes (each record's `weight`), and so is a batch.
 */
class LogBatcher {
  private records: LogRecord[] = [];
  private weights = 0;
  private timer: NodeJS.Timeout | null = null;
  private busy = false;

  push(record: LogRecord): void {
    this.records.push(record);
    this.weights += record.weight;
    // Cheaper than shifting one at a time under load: trim in halves of the caps.
    if (this.records.length >= BATCH_MAX * 2 || this.weights > BATCH_BYTES * 2) this.records = this.newest();
    this.timer ??= setTimeout(() => this.flush(), this.busy ? BUSY_FLUSH_MS : FLUSH_MS);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.busy = this.records.length >= BUSY_ENTRIES;
    if (this.records.length === 0) return;
    const records = this.newest();
    this.records = [];
    this.weights = 0;
    const entries: MockLogEntry[] = records.map((r) => r.entry());
    // One mock per process: every entry names it.
    peer?.emit('mockHost.logged', { project: '', mock: entries[0]!.mock, entries });
  }

  /** The newest records within a batch's count and bytes (the newest always), their weight kept. */
  private newest(): LogRecord[] {
    const kept = newestWithin(this.records, (r) => r.weight, BATCH_MAX, BATCH_BYTES);
    this.weights = kept.reduce((sum, r) => sum + r.weight, 0);
    return kept;
  }
}

const batcher = new LogBatcher();

/** The contract as written (bundled only for New Mock's sampler, never here), read again only when the definition changed (its key says). */
async function contractFor(config: Config): Promise<Contract> {
  const key = config.definitionKey;
  if (contract?.key !== key) contract = { key, value: await readContract(openApiDefinition(config.documents)) };
  return contract.value;
}

/** A SOAP mock's binding of the cached WSDL, read again only when the definition or binding changed. */
async function soapContractFor(config: Config): Promise<SoapContract> {
  const key = `${config.mock.binding ?? ''}\n${config.definitionKey}`;
  if (soapContract?.key !== key) {
    const { loadSoapContract, wsdlDocuments } = await import('./engine/soap/soap-contract-from-wsdl.js');
    soapContract = { key, value: await loadSoapContract(wsdlDocuments(config.documents), config.mock.binding) };
  }
  return soapContract.value;
}

/** The checker, the SOAP contract when the mock is one, and the start's warnings. */
async function prepare(config: Config): Promise<{ checker: ContractChecker; soap?: SoapRoutingFactory; warnings: string[] }> {
  if (config.mock.kind === 'soap') {
    // Loaded only for a SOAP mock: libxml2 takes a few hundred ms to load that a REST mock never pays.
    const [contract, { soapRouting }, { soapOperationMissing }] = await Promise.all([soapContractFor(config), import('./engine/soap/soap-endpoint.js'), import('./engine/soap/soap-findings.js')]);
    const names = new Set(contract.operations.map((op) => op.name));
    const warnings = config.mock.operations.filter((op) => !names.has(op.operationId ?? op.name)).map((op) => soapOperationMissing(op.operationId ?? op.name, op.name, contract.binding));
    return { checker: await checks.soapChecker(contract), soap: soapRouting(contract), warnings };
  }
  const value = await contractFor(config);
  await turn();
  const checker = checks.checker(value);
  await turn();
  const warnings = contractWarnings(config.mock, value);
  await turn();
  return { checker, warnings };
}

/**
 * Serves `config`. At Microsoft Graph beta's scale (a 97 MB start, 22,000 operations) each step
 * holds the thread for seconds (decoding the message 2-3 s, reading the contract 4 s, the routes
 * 3 s), so a turn of the loop comes between them: the supervisor's heartbeat (10 s) is answered.
 */
async function start(config: Config): Promise<ResOf<'mockHost.start'>> {
  await turn();
  const { checker, soap, warnings } = await prepare(config);
  await turn();
  if (server) {
    await server.reconfigure({ mock: config.mock, listenAllInterfaces: config.listenAllInterfaces, checker, ...(soap ? { soap } : {}) });
  } else {
    const make = (keepPort: number | undefined) =>
      new MockServer({
        mock: config.mock,
        listenAllInterfaces: config.listenAllInterfaces,
        checker,
        ...(soap ? { soap } : {}),
        regexRunner: checks.testRegex,
        ...(keepPort ? { keepPort } : {}),
        onRecord: (record) => batcher.push(record),
      });
    server = make(config.keepPort);
    try {
      await server.start();
    } catch (err) {
      // The port kept from an earlier run is taken now: a mock on port 0 takes any free one.
      if (!(hasCode(err, 'mock-port-in-use') && config.mock.port === 0 && config.keepPort)) {
        server = null;
        throw err;
      }
      server = make(undefined);
      await server.start().catch((again: unknown) => {
        server = null;
        throw again;
      });
    }
  }
  return { ...server.address, warnings };
}

if (process.argv.includes('--diagnostics')) {
  connectToSupervisor({
    role: 'mock-diagnostics',
    handlers: {
      'mocks.diagnose': async ({ source, responseNames }) => {
        const { checkDispatchScript } = await import('./engine/script-diagnostics.js');
        return checkDispatchScript(source, responseNames);
      },
    },
  });
} else {
  // Ctrl+C in a terminal signals the whole foreground group, this child included: the parent
  // (`parley mock serve`, the app) decides when the mock stops, over the bus, and a closed bus
  // still ends this process, so it is never left behind.
  process.on('SIGINT', () => {});
  peer = connectToSupervisor({
    role: 'mock-host',
    handlers: {
      'mockHost.start': (config) => start(config),
      'mockHost.reconfigure': (config) => start(config),
      'mockHost.reset': () => {
        server?.resetState();
        return {};
      },
    },
    onShutdown: async () => {
      batcher.flush();
      await server?.stop();
      await checks.close();
    },
  });
}
