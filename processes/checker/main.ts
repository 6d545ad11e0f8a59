/** The checker process: contract checks on a pool of worker threads, each on a hard budget. */
import { connectToSupervisor } from '../runtime/child.js';
import { CheckerPool } from './pool.js';
import { mockFindings } from './mock-findings.js';

const pool = new CheckerPool();

connectToSupervisor({
  role: 'checker',
  handlers: {
    'checker.check': (job, { signal }) => pool.check(job, signal),
    'checker.mockFindings': ({ mock, documents }) => mockFindings(mock, documents),
  },
  onShutdown: () => pool.close(),
});
