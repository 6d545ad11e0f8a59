/** The part of newman's programmatic API the peer test and the bench use (newman ships no types). */
declare module 'newman' {
  interface RunOptions {
    collection: string | object;
    environment?: string | object;
    globals?: string | object;
    iterationCount?: number;
    reporters?: string[];
    timeoutRequest?: number;
    workingDir?: string;
    /** Environment variables given on the command line (--env-var). */
    envVar?: { key: string; value: string }[];
  }
  interface RunSummary {
    run: {
      failures: { error?: { message?: string } }[];
      stats: { requests: { total: number; failed: number } };
      /** Each request run, with the tests its scripts ran. */
      executions: { assertions?: { assertion: string; error?: unknown }[] }[];
    };
  }
  const newman: { run(options: RunOptions, callback: (err: Error | null, summary: RunSummary) => void): unknown };
  export default newman;
}
