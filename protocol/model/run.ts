/**
 * The app's runner on the bus (`run.*`, docs/run.md "The runner in the app"): a run of chosen
 * requests started in the supervisor on `parley run`'s engine, its results as they arrive, its
 * totals, and its reports. What travels is bounded: a result row carries the outcome's counts and
 * at most a few of its failures (the whole outcome is in the exported reports), an event at most
 * RUN_ROWS_PER_EVENT rows, and a run's state the newest RUN_ROWS_KEPT rows.
 */
import { Type as T, type Static } from '@sinclair/typebox';
import { VerdictKind } from './verdict.js';
import { CaptureResult } from './capture.js';

/** Rows in one `run.progress` event: a fast run's rows between two events beyond these are counted, not sent. */
export const RUN_ROWS_PER_EVENT = 200;
/** The newest rows a run's state keeps (for a page that opens the runner during or after a run). */
export const RUN_ROWS_KEPT = 200;
/** Failed assertions and contract problems a row names; the reports name all. */
export const RUN_ROW_FAILURES = 20;
/** Captures a row shows (values cut as a capture result cuts them, a credential's masked); the reports have all. */
export const RUN_ROW_CAPTURES = 20;
/** Requests one run may choose. */
export const MAX_RUN_REQUESTS = 50_000;
export const MAX_RUN_ITERATIONS = 1_000_000;
export const MAX_RUN_DELAY_MS = 3_600_000;
/** Rows and columns of a data file's preview. */
export const DATA_PREVIEW_ROWS = 5;
export const DATA_PREVIEW_COLUMNS = 50;
/** A previewed name or value longer than this is cut, with an ellipsis. */
export const DATA_PREVIEW_CHARS = 200;

const Text = (max: number) => T.String({ maxLength: max });

/** What `run.start` is asked: requests of one project (run in its tree order, whatever order they are given in). */
export const RunStartInput = T.Object({
  project: T.String(),
  /** The runner this run belongs to (its project, API or folder id): `run.latest` finds its newest run. */
  scope: Text(1024),
  requests: T.Array(Text(1024), { minItems: 1, maxItems: MAX_RUN_REQUESTS }),
  /** Absent: once, or once per data row with a data file (rows taken in turn when given with one). */
  iterations: T.Optional(T.Integer({ minimum: 1, maximum: MAX_RUN_ITERATIONS })),
  delayMs: T.Integer({ minimum: 0, maximum: MAX_RUN_DELAY_MS }),
  /** A CSV or JSON data file on this machine: each row's columns are properties for its iteration. */
  data: T.Optional(T.String({ minLength: 1, maxLength: 4096 })),
  /** A workspace environment's id; null: none; absent: the active one (taken when the run starts). */
  environment: T.Optional(T.Union([Text(1024), T.Null()])),
});
export type RunStartInput = Static<typeof RunStartInput>;

/** One request's outcome in a run, as the runner's table shows it. */
export const RunRow = T.Object({
  /** 1-based, in the order outcomes arrived. */
  n: T.Integer({ minimum: 1 }),
  iteration: T.Integer({ minimum: 1 }),
  /** The data row (`row 2 (user=ann, …)`), with a data file. */
  row: T.Optional(T.String()),
  /** `path` is `API/folder/name`; `api` and `folders` are its parts (a name may hold `/`). */
  request: T.Object({ id: T.String(), name: T.String(), path: T.String(), api: T.String(), folders: T.Array(T.String()), method: T.String(), url: T.String() }),
  response: T.Optional(T.Object({ status: T.Integer(), statusText: T.String(), timeMs: T.Number(), size: T.Integer({ minimum: 0 }) })),
  /** Why it was not sent or got no response. */
  error: T.Optional(T.Object({ code: T.String(), message: T.String() })),
  assertions: T.Object({
    total: T.Integer({ minimum: 0 }),
    failed: T.Integer({ minimum: 0 }),
    /** The first failed ones. */
    failures: T.Array(T.Object({ label: T.String(), message: T.String() }), { maxItems: RUN_ROW_FAILURES }),
  }),
  contract: T.Optional(
    T.Object({
      kind: VerdictKind,
      label: T.String(),
      problems: T.Array(T.Object({ pointer: T.String(), message: T.String() }), { maxItems: RUN_ROW_FAILURES }),
      /** Problems beyond those named. */
      more: T.Integer({ minimum: 0 }),
    }),
  ),
  /** What its captures set (credential values masked), or why not: the first RUN_ROW_CAPTURES; absent when it has none. */
  captures: T.Optional(T.Array(CaptureResult, { maxItems: RUN_ROW_CAPTURES })),
  failed: T.Boolean(),
});
export type RunRow = Static<typeof RunRow>;

export const RunTotals = T.Object({
  requests: T.Integer({ minimum: 0 }),
  failed: T.Integer({ minimum: 0 }),
  errors: T.Integer({ minimum: 0 }),
  assertions: T.Object({ total: T.Integer({ minimum: 0 }), failed: T.Integer({ minimum: 0 }) }),
  /** Captures run and those that set nothing; absent when none ran. */
  captures: T.Optional(T.Object({ total: T.Integer({ minimum: 0 }), failed: T.Integer({ minimum: 0 }) })),
  contractFailures: T.Integer({ minimum: 0 }),
});
export type RunTotals = Static<typeof RunTotals>;

export const RunProgress = T.Object({
  done: T.Integer({ minimum: 0 }),
  total: T.Optional(T.Integer({ minimum: 0 })),
  /** 0..1: done / total, or how far the data file has been read. */
  fraction: T.Optional(T.Number({ minimum: 0, maximum: 1 })),
});

/** A finished run's totals, as the reports' summary has them (processes/supervisor/run/report.ts). */
export const RunSummary = T.Object({
  project: T.String(),
  environment: T.Optional(T.String()),
  iterations: T.Integer({ minimum: 0 }),
  requests: T.Integer({ minimum: 0 }),
  failed: T.Integer({ minimum: 0 }),
  errors: T.Integer({ minimum: 0 }),
  assertions: T.Object({ total: T.Integer({ minimum: 0 }), failed: T.Integer({ minimum: 0 }) }),
  captures: T.Optional(T.Object({ total: T.Integer({ minimum: 0 }), failed: T.Integer({ minimum: 0 }) })),
  contractFailures: T.Integer({ minimum: 0 }),
  bailed: T.Boolean(),
  /** Stop stopped it (or its project closed). */
  interrupted: T.Boolean(),
  durationMs: T.Number({ minimum: 0 }),
  startedAt: T.String(),
  /** What ended it early: a data row that did not read, or a failure of the run itself. */
  error: T.Optional(T.Object({ code: T.String(), message: T.String() })),
});
export type RunSummary = Static<typeof RunSummary>;

/** A run as the runner shows it: what it runs, how far it is, its newest rows, and its totals once it ends. */
export const RunState = T.Object({
  run: T.String(),
  project: T.String(),
  scope: T.String(),
  /** The requests chosen, in the order they run. */
  requests: T.Array(T.String(), { maxItems: MAX_RUN_REQUESTS }),
  iterations: T.Optional(T.Integer({ minimum: 1 })),
  delayMs: T.Integer({ minimum: 0 }),
  data: T.Optional(T.String()),
  /** The environment's name; absent: none. */
  environment: T.Optional(T.String()),
  startedAt: T.String(),
  running: T.Boolean(),
  progress: RunProgress,
  totals: RunTotals,
  /** The newest rows (at most RUN_ROWS_KEPT). */
  rows: T.Array(RunRow, { maxItems: RUN_ROWS_KEPT }),
  summary: T.Optional(RunSummary),
  /** The requests that failed in some iteration, in run order: what Run failed again runs. */
  failedRequests: T.Array(T.String(), { maxItems: MAX_RUN_REQUESTS }),
});
export type RunState = Static<typeof RunState>;

/** Rows since the last event, with the run's totals then (supervisor -> UI, at most ten a second a run). */
export const RunProgressEvent = T.Object({
  run: T.String(),
  project: T.String(),
  rows: T.Array(RunRow, { maxItems: RUN_ROWS_PER_EVENT }),
  /** Outcomes since the last event that are not among `rows` (a fast run's older ones): counted in the totals, shown in the reports. */
  skipped: T.Integer({ minimum: 0 }),
  progress: RunProgress,
  totals: RunTotals,
});
export type RunProgressEvent = Static<typeof RunProgressEvent>;

export const RunFinishedEvent = T.Object({
  run: T.String(),
  project: T.String(),
  summary: RunSummary,
  failedRequests: T.Array(T.String(), { maxItems: MAX_RUN_REQUESTS }),
});
export type RunFinishedEvent = Static<typeof RunFinishedEvent>;

/** The first rows of a data file, as the runner previews it. */
export const DataPreview = T.Object({
  /** The file, as an absolute path. */
  file: T.String(),
  kind: T.Union([T.Literal('csv'), T.Literal('json')]),
  /** Column names in the order first seen (at most DATA_PREVIEW_COLUMNS). */
  columns: T.Array(Text(DATA_PREVIEW_CHARS + 1), { maxItems: DATA_PREVIEW_COLUMNS }),
  /** Each previewed row's values by column ('' where a row lacks one); credential-named columns masked. */
  rows: T.Array(T.Array(Text(DATA_PREVIEW_CHARS + 1), { maxItems: DATA_PREVIEW_COLUMNS }), { maxItems: DATA_PREVIEW_ROWS }),
  /** Whether the file has rows past those shown. */
  more: T.Boolean(),
});
export type DataPreview = Static<typeof DataPreview>;

export const RunReportFormat = T.Union([T.Literal('json'), T.Literal('junit')]);
export type RunReportFormat = Static<typeof RunReportFormat>;
