import { Type as T, type Static } from '@sinclair/typebox';
import { Id, Problem, Row } from './common.js';
import { Auth } from './auth.js';

/** parley.yaml at the root of a project folder. */
export const ProjectFile = T.Object({
  version: T.Literal(1),
  name: T.String({ minLength: 1 }),
  properties: T.Array(Row),
});
export type ProjectFile = Static<typeof ProjectFile>;

/**
 * folder.yaml in a folder of requests: its place among its parent's items, and it keeps a folder
 * that holds nothing yet in the project (git keeps no empty folder). A folder without one (a
 * project written before) is a folder all the same, placed by name.
 *
 * Its settings (auth, headers, variables) are inherited by every request in it and in its
 * folders, the nearest folder first (protocol/inheritance.ts, docs/project-files.md "Folder
 * settings"). Each is optional, so a folder.yaml without them (every one written before) reads
 * as it is: no migration, the version stays 1.
 */
export const FolderFile = T.Object({
  version: T.Literal(1),
  /** A fractional index key (protocol/project/order-keys.ts). */
  order: T.Optional(T.String()),
  /**
   * Names the folder's secrets in the keychain (`folder/<id>/<field>`); made the first time a
   * typed secret of its auth is stored, so it outlives a rename or a move of the folder.
   */
  id: T.Optional(Id),
  /** What its requests that inherit use; absent or `inherit`: what the folder above (or the API) has. */
  auth: T.Optional(Auth),
  /** Sent with every request in it; a request's own header of the same name wins, then the nearest folder's. */
  headers: T.Optional(T.Array(Row)),
  /** `${name}` values for the requests in it: over the project's properties, under the environment. */
  variables: T.Optional(T.Array(Row)),
});
export type FolderFile = Static<typeof FolderFile>;

/** A folder's settings as its editor has them: each always there (empty, or auth inherit, when the file has none). */
export const FolderSettings = T.Object({
  auth: Auth,
  headers: T.Array(Row),
  variables: T.Array(Row),
});
export type FolderSettings = Static<typeof FolderSettings>;

/** Where an inherited value is set: a folder (by its tree id and name) or the API. */
export const SettingSource = T.Object({ kind: T.Union([T.Literal('folder'), T.Literal('api')]), id: T.String(), name: T.String() });
export type SettingSource = Static<typeof SettingSource>;

/**
 * What a request (or a folder) takes from the folders above it and its API: the auth its Inherit
 * means and where it is set, the headers it gets (a request's own of the same name still wins)
 * and the folders' variables, each with its source, nearest first where one hides another.
 */
export const InheritedSettings = T.Object({
  auth: T.Object({ auth: Auth, from: SettingSource }),
  headers: T.Array(T.Object({ name: T.String(), value: T.String(), from: SettingSource })),
  variables: T.Array(T.Object({ name: T.String(), value: T.String(), from: SettingSource })),
});
export type InheritedSettings = Static<typeof InheritedSettings>;

/**
 * The sidebar's view of a project: a flat list of rows with parent ids, cheap to send and
 * to virtualize. Full requests are fetched one at a time when opened.
 */
export const TreeItem = T.Union([
  T.Object({
    kind: T.Literal('api'),
    id: T.String(),
    name: T.String(),
    baseUrl: T.String(),
    hasDefinition: T.Boolean(),
    /** The definition's format when it has one (`protobuf`: a gRPC API, whose rows offer New gRPC request). */
    definitionFormat: T.Optional(T.String()),
    order: T.Optional(T.String()),
  }),
  T.Object({ kind: T.Literal('folder'), id: T.String(), parent: T.String(), name: T.String(), order: T.Optional(T.String()) }),
  T.Object({
    kind: T.Literal('request'),
    id: T.String(),
    parent: T.String(),
    name: T.String(),
    /** The kind's badge (protocol/kinds/): an HTTP request's method. */
    method: T.String(),
    orphaned: T.Boolean(),
    /** The request's kind when it is not HTTP (protocol/kinds/). */
    requestKind: T.Optional(T.String()),
    /** Its place among its siblings (order-keys.ts); absent: placed by name. */
    order: T.Optional(T.String()),
  }),
  T.Object({ kind: T.Literal('mock'), id: T.String(), name: T.String() }),
]);
export type TreeItem = Static<typeof TreeItem>;

export const ProjectTree = T.Object({
  root: T.String(),
  name: T.String(),
  items: T.Array(TreeItem),
  properties: T.Array(Row),
  problems: T.Array(Problem),
  /** Which opening of the folder `seq` counts in (a project closed and opened again starts anew). */
  opened: T.String(),
  /** The number of the last `project.changed` delta this tree includes: the page applies the ones after it. */
  seq: T.Integer({ minimum: 0 }),
});
export type ProjectTree = Static<typeof ProjectTree>;

/**
 * What one save changed in a project's tree (`project.changed`), instead of the whole tree: items
 * added or changed (each whole), items removed, and the project's name and properties and the
 * problems of the files named, when they changed. Deltas are numbered one after another per
 * open project; a page that misses one asks for the tree again (`project.tree`).
 */
export const TreeDelta = T.Object({
  root: T.String(),
  opened: T.String(),
  seq: T.Integer({ minimum: 1 }),
  items: T.Array(TreeItem),
  removed: T.Array(T.Object({ kind: T.Union([T.Literal('api'), T.Literal('folder'), T.Literal('request'), T.Literal('mock')]), id: T.String() })),
  name: T.Optional(T.String()),
  properties: T.Optional(T.Array(Row)),
  /** Every problem of these files now (none: the files are fixed or gone). */
  problems: T.Optional(T.Object({ files: T.Array(T.String()), list: T.Array(Problem) })),
});
export type TreeDelta = Static<typeof TreeDelta>;

/** An API, folder or request of a tree, for the tree edits (`tree.*` messages). */
export const TreeRef = T.Object({ kind: T.Union([T.Literal('api'), T.Literal('folder'), T.Literal('request')]), id: T.String({ minLength: 1 }) });
export type TreeRef = Static<typeof TreeRef>;

/** Items of a big tree sent ahead of the reply that carries the rest (`project.open`). */
export const TreePage = T.Object({ items: T.Array(TreeItem) });
export type TreePage = Static<typeof TreePage>;

/** The whole tree again: the pages' items, in the order they came, then the reply's own. */
export function withPages(pages: readonly TreePage[], tree: ProjectTree): ProjectTree {
  if (pages.length === 0) return tree;
  return { ...tree, items: [...pages.flatMap((page) => page.items), ...tree.items] };
}
