import { Type as T, type Static } from '@sinclair/typebox';
import { Id, Row } from './common.js';

/** A variable whose value is a `${secret:name}` reference is a secret; the value sits in the secret store (keychain or vault). */
export const Environment = T.Object({
  id: Id,
  name: T.String({ minLength: 1 }),
  variables: T.Array(Row),
});
export type Environment = Static<typeof Environment>;

export const DEFAULT_HISTORY_LIMIT = 500;
export const HISTORY_LIMIT_RANGE = { min: 10, max: 10_000 } as const;

export const Theme = T.Union([T.Literal('light'), T.Literal('dark'), T.Literal('system')]);
export type Theme = Static<typeof Theme>;

/** Sizes of the UI's resizable panes in CSS pixels, remembered per workspace. */
export const PaneSizes = T.Object({
  sidebar: T.Optional(T.Integer({ minimum: 0, maximum: 4000 })),
  /** Height of the request's half of the request editor (the response has the rest). */
  request: T.Optional(T.Integer({ minimum: 0, maximum: 4000 })),
  /** Height of the mock tab's log panel. */
  mockLog: T.Optional(T.Integer({ minimum: 0, maximum: 4000 })),
  /** The request's share of the request editor, in thousandths: of its height, or of its width side by side. */
  requestShare: T.Optional(T.Integer({ minimum: 0, maximum: 1000 })),
  requestWidthShare: T.Optional(T.Integer({ minimum: 0, maximum: 1000 })),
});
export type PaneSizes = Static<typeof PaneSizes>;

export const Preferences = T.Object({
  theme: Theme,
  /** http://host:port, or empty for a direct connection. */
  proxy: T.String(),
  /** Path to a PEM file of extra trusted CAs, or empty. */
  caBundle: T.String(),
  /** Preferences > Mock services > Listen on all interfaces. */
  mockListenAllInterfaces: T.Boolean(),
  /** History entries kept per project (DEFAULT_HISTORY_LIMIT when absent): older ones are dropped. */
  historyLimit: T.Optional(T.Integer({ minimum: HISTORY_LIMIT_RANGE.min, maximum: HISTORY_LIMIT_RANGE.max })),
  panes: T.Optional(PaneSizes),
  /** The response beside the request instead of below it (off when absent). */
  responseBeside: T.Optional(T.Boolean()),
  /** Soft wrap in every code editor and viewer (off when absent). */
  wrapLines: T.Optional(T.Boolean()),
});
export type Preferences = Static<typeof Preferences>;

export const Workspace = T.Object({
  version: T.Literal(1),
  environments: T.Array(Environment),
  globals: T.Array(Row),
  activeEnvironment: T.Optional(T.String()),
  preferences: Preferences,
  /** Names of secrets this workspace stored in its secret store (the values are never here). */
  secrets: T.Array(T.String()),
  recentProjects: T.Array(T.String()),
});
export type Workspace = Static<typeof Workspace>;

export function defaultPreferences(): Preferences {
  return { theme: 'system', proxy: '', caBundle: '', mockListenAllInterfaces: false };
}

export function emptyWorkspace(): Workspace {
  return { version: 1, environments: [], globals: [], preferences: defaultPreferences(), secrets: [], recentProjects: [] };
}

/**
 * Where the workspace keeps secrets (docs/secrets.md): the system keychain, the workspace's
 * encrypted vault file (chosen when there is no keychain), or nowhere.
 */
export const SecretStorage = T.Object({
  backend: T.Union([T.Literal('keychain'), T.Literal('vault'), T.Literal('none')]),
  /** The vault is there but not unlocked in this session. */
  locked: T.Boolean(),
  /** A secret can be stored and read now. */
  available: T.Boolean(),
  /** Why not, when not: no secure storage, the vault locked or damaged. */
  reason: T.Optional(T.String()),
  /** The vault file: where it is, or where one would be made (no keychain). */
  vaultFile: T.Optional(T.String()),
});
export type SecretStorage = Static<typeof SecretStorage>;

/** Codes of the errors that mean no secret can be stored or read now: the UI offers a vault, an unlock, or going without. */
export const NO_STORAGE_CODES: ReadonlySet<string> = new Set(['no-secure-storage', 'vault-locked']);
