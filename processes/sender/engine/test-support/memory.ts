import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Samples memory still reachable (after a forced full GC) while `work` runs: what a body keeps
 * alive, not what the collector has not swept yet. Returns the peak growth in bytes.
 */
export async function peakRetainedGrowth<T>(work: () => Promise<T>, everyMs = 20): Promise<{ result: T; peak: number }> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const retained = (): number => {
    gc();
    const usage = process.memoryUsage();
    return usage.heapUsed + usage.arrayBuffers;
  };
  const baseline = retained();
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, retained() - baseline)), everyMs);
  try {
    const result = await work();
    return { result, peak };
  } finally {
    clearInterval(sampler);
  }
}
