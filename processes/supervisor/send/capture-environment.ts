/**
 * The app's captures (docs/captures.md): each open project's session values, and a capture the
 * user pointed at the active environment written there. A credential goes to the secret store
 * (the keychain, or the vault), as Add secret… puts it (`<environment>/<variable>`), and the
 * variable holds its `${secret:...}` reference, so workspace.yaml never holds the value; without
 * a usable store it stays in memory.
 */
import { environmentSecretName } from '../../../protocol/secret-names.js';
import type { Supervisor } from '../supervisor.js';
import type { SecretStore } from '../store/secrets.js';
import type { WorkspaceStore } from '../store/workspace-store.js';
import type { CaptureSink } from './captures.js';
import type { CapturedValues } from './captured-values.js';

export function appCaptureSink(sup: { workspace: WorkspaceStore; secrets: SecretStore; broadcast: Supervisor['broadcast'] }, values: CapturedValues): CaptureSink {
  return {
    values,
    toEnvironment: async (name, value, credential, from) => {
      const ws = sup.workspace.get();
      const active = ws.environments.find((e) => e.id === ws.activeEnvironment);
      if (!active) {
        values.set(name, value, credential, undefined, from);
        return 'no environment is active: kept for this session';
      }
      let stored = value;
      let secret: string | undefined;
      if (credential) {
        if ((await sup.secrets.unavailableReason()) !== null) {
          values.set(name, value, credential, undefined, from);
          return 'a credential is kept only in the secret store, which is not usable now: kept in memory for this session';
        }
        secret = environmentSecretName(active.name, name);
        await sup.secrets.set(secret, value);
        stored = `\${secret:${secret}}`;
      } else if (value.includes('${')) {
        // An environment's values expand: a response must not make a later send read a secret.
        values.set(name, value, credential, undefined, from);
        return 'the value holds ${...}, which an environment would expand: kept for this session';
      }
      const next = await sup.workspace.update((draft) => {
        const env = draft.environments.find((e) => e.id === active.id);
        if (!env) return;
        const row = env.variables.find((r) => r.name === name);
        if (row) Object.assign(row, { value: stored, enabled: true });
        else env.variables.push({ name, value: stored, enabled: true });
        if (secret !== undefined && !draft.secrets.includes(secret)) draft.secrets = [...draft.secrets, secret].sort();
      });
      sup.broadcast('workspace.changed', next);
      return secret === undefined ? undefined : `in ${active.name} as ${stored} (the value is in the secret store)`;
    },
  };
}
