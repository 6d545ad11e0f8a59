/**
 * The checker process: contract checks and Query tab queries on worker threads, each on a hard
 * budget; stub findings and the Form view's body schemas on its own thread, off the supervisor's.
 */
import { ParleyError } from '../../protocol/errors.js';
import { connectToSupervisor } from '../runtime/child.js';
import { requestBodySchema } from './engine/body-schema.js';
import { CheckerPool } from './pool.js';
import { mockFindings } from '../mock-host/engine/mock-findings.js';
import { QueryPool } from './query-pool.js';

const pool = new CheckerPool();
const queries = new QueryPool();

connectToSupervisor({
  role: 'checker',
  handlers: {
    'checker.check': (job, { signal }) => pool.check(job, signal),
    'checker.mockFindings': ({ mock, documents, definitionKey }) => mockFindings(mock, documents, definitionKey),
    'checker.query': (job, { signal }) => queries.run(job, signal),
    'checker.bodySchema': async ({ definition, operation }, { signal }) => {
      const documents = await pool.definitionDocuments(definition, signal);
      if (!documents) throw new ParleyError('no-definition', 'The checker does not hold this definition; send its documents.');
      return requestBodySchema(documents, operation);
    },
    'checker.assert': async (job, { signal }) => ({ results: await queries.assert(job, signal) }),
    'checker.graphqlSchema': (source, { signal }) => queries.graphqlSchema(source, signal),
    'checker.capture': async (job, { signal }) => ({ values: await queries.capture(job, signal) }),
  },
  onShutdown: () => Promise.all([pool.close(), queries.close()]).then(() => undefined),
});
