/** What a user is told when the system has no keychain: the words to act on, never the D-Bus error. */
import { describe, expect, it } from 'vitest';
import { KeychainSecrets, noSecureStorageMessage } from './secrets.js';

describe('no secure storage', () => {
  it('says so and what to do on each system', () => {
    expect(noSecureStorageMessage('linux')).toMatch(/^No secure storage on this system: .*install and start a Secret Service .*gnome-keyring/);
    expect(noSecureStorageMessage('darwin')).toContain('login keychain');
    expect(noSecureStorageMessage('win32')).toContain('Credential Manager');
  });

  it('a session bus with no Secret Service gives that message, with the keychain’s own words kept aside', async () => {
    const before = process.env.DBUS_SESSION_BUS_ADDRESS;
    process.env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent/parley-no-bus';
    try {
      const secrets = new KeychainSecrets(`/parley-test-${process.pid}`);
      await expect(secrets.unavailableReason()).resolves.toBe(noSecureStorageMessage());
      const err = await secrets.set('apiToken', 'value').catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'no-secure-storage', message: noSecureStorageMessage() });
      expect((err as Error).message).not.toMatch(/d-?bus|org\.freedesktop/i);
      expect((err as { data: { detail: string } }).data.detail).not.toBe('');
    } finally {
      if (before === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
      else process.env.DBUS_SESSION_BUS_ADDRESS = before;
    }
  });
});
