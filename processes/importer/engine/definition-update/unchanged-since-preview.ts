/** The Apply rule every format shares: refused when a fresh read of the sources differs from the preview's. */
import { ParleyError } from '../../../../protocol/errors.js';

export function refuseIfChanged(expected: string | undefined, actual: string): void {
  if (expected === undefined || expected === actual) return;
  throw new ParleyError('definition-changed', 'A source document changed since the preview, so nothing was applied. Preview again to see the changes.', { expected, actual });
}
