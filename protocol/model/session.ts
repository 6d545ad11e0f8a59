/**
 * The workspace's session (`<data>/session.json`): what was open when Parley stopped or the page
 * went away (the projects, the tabs in order, the active one, each tab's unsaved draft), opened
 * again at the next start or load. The supervisor is its only writer; it never lives in a project
 * folder, and a kept draft never holds a secret (protocol/credentials/draft-secrets.ts).
 */
import { Type as T, type Static, type TSchema } from '@sinclair/typebox';
import { Row } from './common.js';
import { Api } from './api.js';
import { Mock } from './mock.js';
import { AnyRequest } from '../kinds/index.js';
import { Environment } from './workspace.js';

export const SESSION_VERSION = 1;
export const MAX_SESSION_TABS = 200;
export const MAX_SESSION_PROJECTS = 100;
/** A draft longer than this as JSON is not kept (the tab still is): a restart would lose it, and the page says so. */
export const MAX_KEPT_DRAFT_CHARS = 4 * 1024 * 1024;
/** All kept drafts together: past this, later tabs keep no draft (and the page asks before it closes). */
export const MAX_KEPT_DRAFTS_CHARS = 32 * 1024 * 1024;

export const SessionDraft = T.Object({
  /** The draft, its secrets left out: a value the file holds is the mask, a typed one is blank. */
  value: T.Unknown(),
  /** What was typed and left out, as the restored tab names it ("auth password"). */
  leftOut: T.Array(T.String({ maxLength: 300 }), { maxItems: 50 }),
});
export type SessionDraft = Static<typeof SessionDraft>;

/** An open tab as the page's tab strip has it (`Tab` in processes/ui/src/state/tabs.ts), and its draft. */
export const SessionTab = T.Object({
  kind: T.String({ minLength: 1, maxLength: 32 }),
  /** The project folder, or '' for a tab of the workspace (Environments, Preferences, HTTP Log). */
  project: T.String({ maxLength: 4096 }),
  itemId: T.String({ maxLength: 1024 }),
  title: T.String({ maxLength: 1024 }),
  method: T.Optional(T.String({ maxLength: 32 })),
  /** A request tab's kind when it is not HTTP: it opens as that kind's editor before its project's tree is here. */
  requestKind: T.Optional(T.String({ minLength: 1, maxLength: 32 })),
  preview: T.Optional(T.Boolean()),
  draft: T.Optional(SessionDraft),
});
export type SessionTab = Static<typeof SessionTab>;

export const SessionTabs = T.Object({
  tabs: T.Array(SessionTab, { maxItems: MAX_SESSION_TABS }),
  /** The active tab's place in `tabs`. */
  active: T.Optional(T.Integer({ minimum: 0, maximum: MAX_SESSION_TABS - 1 })),
});
export type SessionTabs = Static<typeof SessionTabs>;

export const Session = T.Object({
  version: T.Literal(SESSION_VERSION),
  /** Open project folders, in the order they were opened. */
  projects: T.Array(T.String({ minLength: 1, maxLength: 4096 }), { maxItems: MAX_SESSION_PROJECTS }),
  tabs: SessionTabs.properties.tabs,
  active: SessionTabs.properties.active,
});
export type Session = Static<typeof Session>;

export function emptySession(): Session {
  return { version: SESSION_VERSION, projects: [], tabs: [] };
}

/** What the Environments tab edits. */
export const EnvironmentsDoc = T.Object({ environments: T.Array(Environment), globals: T.Array(Row) });
export type EnvironmentsDoc = Static<typeof EnvironmentsDoc>;

/** The document each kind of tab edits: a kept draft of another kind, or not of this shape, is not kept. */
export const DRAFT_SCHEMAS: ReadonlyMap<string, TSchema> = new Map<string, TSchema>([
  ['request', AnyRequest],
  ['api', Api],
  ['mock', Mock],
  ['project', T.Array(Row)],
  ['environments', EnvironmentsDoc],
]);
