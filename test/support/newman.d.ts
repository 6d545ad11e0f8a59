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
  }
  interface RunSummary {
    run: { failures: unknown[]; stats: { requests: { total: number; failed: number } } };
  }
  const newman: { run(options: RunOptions, callback: (err: Error | null, summary: RunSummary) => void): unknown };
  export default newman;
}
