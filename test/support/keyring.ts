/**
 * Whether a real Secret Service is here (the test command runs vitest inside
 * scripts/with-keyring). Under CI=true a missing keyring fails loudly instead of skipping.
 */
import { KeychainSecrets } from '../../processes/supervisor/store/secrets.js';

export async function keyringMissing(): Promise<string | null> {
  const reason = await new KeychainSecrets('/parley-probe').unavailableReason();
  if (reason === null) return null;
  if (process.env.CI) throw new Error(`${reason} Keychain tests cannot be skipped under CI: run them through scripts/with-keyring.`);
  return reason;
}
