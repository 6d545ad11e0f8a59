/**
 * OAuth 2 tokens for sends, through one token client whose HTTP goes via the preferences'
 * proxy and extra CA. The authorization-code flow opens the user's browser and also tells the
 * UI, which shows the sign-in link in case no browser could be opened.
 */
import { readFile } from 'node:fs/promises';
import type { Auth } from '../../../protocol/model/auth.js';
import type { Preferences } from '../../../protocol/model/workspace.js';
import { OAuth2TokenClient } from '../auth/index.js';

/** undici's limit until a token endpoint's headers, and between its body chunks. */
const TOKEN_CALL_GAP_MS = 30_000;

export class OAuthTokens {
  private client: OAuth2TokenClient | null = null;
  private clientKey = '';

  constructor(
    private readonly preferences: () => Preferences,
    private readonly openBrowser: (url: string) => Promise<void>,
  ) {}

  async token(auth: Extract<Auth, { type: 'oauth2' }>, cacheKey: string, signal?: AbortSignal): Promise<string> {
    const client = await this.clientFor(this.preferences());
    const token = await client.getToken(cacheKey, auth, signal);
    return token.accessToken;
  }

  private async clientFor(prefs: Preferences): Promise<OAuth2TokenClient> {
    const key = `${prefs.proxy}\0${prefs.caBundle}`;
    if (this.client && this.clientKey === key) return this.client;
    const caPem = prefs.caBundle ? await readFile(prefs.caBundle, 'utf8') : '';
    // The dispatcher factory brings undici, loaded with the first token: most supervisors never ask for one.
    const { createDispatcher } = await import('../../sender/engine/dispatchers.js');
    const dispatcher = createDispatcher({ proxy: prefs.proxy, caPem, timeoutMs: TOKEN_CALL_GAP_MS });
    this.client = new OAuth2TokenClient({ openBrowser: this.openBrowser, dispatcher });
    this.clientKey = key;
    return this.client;
  }
}
