/**
 * Editor diagnostics for dispatch.ts: the script is type-checked with the TypeScript compiler API
 * against a declaration file generated for its operation, where respond() accepts only that
 * operation's response names. Misspelt names, request fields that do not exist and respond calls
 * naming a missing response come back with line and column.
 *
 * The standard library's source files are parsed once and kept, and each check reuses the last
 * program, so a check after the first costs a few milliseconds.
 *
 * The compiler is loaded on the first check, not on import: the mock-host bundle holds this module
 * (for its --diagnostics mode), and a host that only serves a mock must not load TypeScript.
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type * as TS from 'typescript';

let ts: typeof TS;

function compiler(): typeof TS {
  ts ??= createRequire(import.meta.url)('typescript') as typeof TS;
  return ts;
}

export interface ScriptDiagnostic {
  /** 1-based. */
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  message: string;
  /** TypeScript's error number, or 0 for Parley's own rules. */
  code: number;
  severity: 'error' | 'warning';
}

const SCRIPT_FILE = '/dispatch.ts';
const GLOBALS_FILE = '/parley-dispatch.d.ts';

const options = (): TS.CompilerOptions => ({
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2022.d.ts'],
  strict: true,
  // Scripts are short and often untyped; a missing annotation is not a mistake here.
  noImplicitAny: false,
  noEmit: true,
  types: [],
  skipLibCheck: true,
  moduleDetection: ts.ModuleDetectionKind.Legacy,
});
let OPTIONS: TS.CompilerOptions | undefined;

/** The globals a dispatch script sees, typed for one operation's responses. */
export function dispatchDeclarations(responseNames: readonly string[]): string {
  const names = responseNames.length === 0 ? 'never' : responseNames.map((n) => JSON.stringify(n)).join(' | ');
  return `/** Response names this operation has. */
type ResponseName = ${names};
interface ParleyRequest {
  /** Name of the operation. */
  readonly operation: string;
  readonly method: string;
  /** The path after the mock's Path, without the query. */
  readonly path: string;
  /** Each query parameter's values, in order. */
  readonly query: { readonly [name: string]: readonly string[] | undefined };
  readonly headers: ReadonlyArray<{ readonly name: string; readonly value: string }>;
  readonly pathParams: { readonly [name: string]: string | undefined };
  /** The body as text. */
  readonly body: string;
}
/** The request being answered. */
declare const request: ParleyRequest;
/** The responses this script may pick. */
declare const responses: ReadonlyArray<{ readonly id: string; readonly name: ResponseName }>;
/** Picks the response to send; without a call the default response is sent. */
declare function respond(name: ${names}): void;
/** Scenario states; every scenario starts at "Started". set throws past the mock's bounds: 1,000 scenarios, names of 256 characters, states of 1,024. */
declare const scenarios: { get(name: string): string; set(name: string, state: string): void };
/** Writes a line to the mock's log. */
declare function log(...args: unknown[]): void;
`;
}

const libFiles = new Map<string, TS.SourceFile | undefined>();
let lastProgram: TS.Program | undefined;
let libDir = '';

function libFile(fileName: string): TS.SourceFile | undefined {
  if (!libFiles.has(fileName)) {
    const text = ts.sys.readFile(fileName);
    libFiles.set(fileName, text === undefined ? undefined : ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true));
  }
  return libFiles.get(fileName);
}

export function checkDispatchScript(source: string, responseNames: readonly string[]): ScriptDiagnostic[] {
  compiler();
  OPTIONS ??= options();
  libDir ||= dirname(ts.getDefaultLibFilePath(OPTIONS));
  const scriptFile = ts.createSourceFile(SCRIPT_FILE, source, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const globalsFile = ts.createSourceFile(GLOBALS_FILE, dispatchDeclarations(responseNames), ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const files = new Map([
    [SCRIPT_FILE, scriptFile],
    [GLOBALS_FILE, globalsFile],
  ]);
  const host: TS.CompilerHost = {
    getSourceFile: (name) => files.get(name) ?? (name.startsWith(libDir) ? libFile(name) : undefined),
    getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
    writeFile: () => undefined,
    getCurrentDirectory: () => '/',
    getCanonicalFileName: (name) => name,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (name) => files.has(name) || (name.startsWith(libDir) && libFile(name) !== undefined),
    readFile: (name) => files.get(name)?.text ?? (name.startsWith(libDir) ? ts.sys.readFile(name) : undefined),
    directoryExists: () => true,
    getDirectories: () => [],
  };
  const program = ts.createProgram({ rootNames: [GLOBALS_FILE, SCRIPT_FILE], options: OPTIONS, host, oldProgram: lastProgram });
  lastProgram = program;

  const found = [...program.getSyntacticDiagnostics(scriptFile), ...program.getSemanticDiagnostics(scriptFile)];
  const diagnostics = found.map((d) => toDiagnostic(scriptFile, d.start ?? 0, d.length ?? 0, ts.flattenDiagnosticMessageText(d.messageText, '\n'), d.code, d.category));
  for (const statement of scriptFile.statements) {
    if (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement) || ts.isExportAssignment(statement) || hasExportModifier(statement)) {
      diagnostics.push(
        toDiagnostic(scriptFile, statement.getStart(scriptFile), statement.getWidth(scriptFile), 'A dispatch script cannot import or export: it runs alone, with only request, responses, respond, scenarios and log.', 0, ts.DiagnosticCategory.Error),
      );
    }
  }
  return diagnostics.sort((a, b) => a.line - b.line || a.column - b.column);
}

function hasExportModifier(statement: TS.Statement): boolean {
  return ts.canHaveModifiers(statement) && (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

function toDiagnostic(file: TS.SourceFile, start: number, length: number, message: string, code: number, category: TS.DiagnosticCategory): ScriptDiagnostic {
  const from = file.getLineAndCharacterOfPosition(start);
  const to = file.getLineAndCharacterOfPosition(start + length);
  return {
    line: from.line + 1,
    column: from.character + 1,
    endLine: to.line + 1,
    endColumn: to.character + 1,
    message,
    code,
    severity: category === ts.DiagnosticCategory.Error ? 'error' : 'warning',
  };
}
