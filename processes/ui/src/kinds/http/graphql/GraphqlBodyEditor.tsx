/**
 * A GraphQL body (docs/graphql.md): the query in CodeMirror with cm6-graphql (highlighting,
 * validation against the schema, completion of fields, arguments, variables and fragments),
 * the operation to run when the document holds several, the variables as JSON (`${name}` kept
 * as written), the schema's source and the docs explorer. The response's errors are marked at
 * their locations in the query.
 */
import { useEffect, useMemo } from 'preact/hooks';
import { completion, jump, lint, stateExtensions } from 'cm6-graphql';
import type { Extension } from '@codemirror/state';
import { autocompletion } from '@codemirror/autocomplete';
import { emptyGraphqlBody, type GraphqlBody } from '../../../../../../protocol/model/graphql.js';
import { CodeEditor } from '../../../code/CodeEditor.js';
import { WrapToggle } from '../../../code/WrapToggle.js';
import { edit, type RequestTabState } from '../../../state/request-tabs.js';
import { parseMarks } from '../../../editors/request/BodyEditor.js';
import { errorMarks, operationsOf } from './operations.js';
import { loadSchema, schemaState, type SchemaState } from './schema-state.js';
import { DocsExplorer } from './DocsExplorer.js';
import './graphql.css';

export function GraphqlBodyEditor({ state }: { state: RequestTabState }) {
  const draft = state.draft.value!;
  const body = draft.body.graphql ?? emptyGraphqlBody();
  const schema = schemaState(state.tab.id);
  const set = (patch: Partial<GraphqlBody>) => edit(state, (r) => ({ ...r, body: { ...r.body, graphql: { ...(r.body.graphql ?? emptyGraphqlBody()), ...patch } } }));

  // The schema on first open (introspected when nothing is cached), and again for another schema file.
  useEffect(() => {
    if (schema.source !== (body.schemaFile.trim())) void loadSchema(schema, state.tab.project, draft, false);
  }, [body.schemaFile]);

  const current = schema.schema.value;
  const extensions = useMemo<Extension>(
    () => [stateExtensions(current ?? undefined, { onShowInDocs: (field, type, parent) => openDocs(schema, type ?? parent ?? field ?? null) }), autocompletion(), completion, lint, jump],
    [current],
  );
  const operations = useMemo(() => operationsOf(body.query), [body.query]);
  const marks = useMemo(() => errorMarks(state.exchange.value, body.query), [state.exchange.value, body.query]);

  return (
    <div class={`graphql-body${schema.docsOpen.value ? ' with-docs' : ''}`}>
      <div class="graphql-editors">
        <div class="toolbar">
          <SchemaLine schema={schema} onRefresh={() => void loadSchema(schema, state.tab.project, state.draft.value!, true)} />
          {operations.length > 1 && (
            <label class="graphql-operation">
              <span>Operation</span>
              <select aria-label="Operation" value={body.operationName} onChange={(e) => set({ operationName: (e.target as HTMLSelectElement).value })}>
                <option value="">Choose…</option>
                {operations.map((op, i) => (
                  <option key={i} value={op.name} disabled={op.name === ''}>
                    {op.type} {op.name || '(anonymous)'}
                  </option>
                ))}
              </select>
            </label>
          )}
          <span class="spacer" />
          <button class="button small" aria-pressed={schema.docsOpen.value} onClick={() => (schema.docsOpen.value = !schema.docsOpen.value)}>
            Docs
          </button>
          <WrapToggle />
        </div>
        {operations.length > 1 && !operations.some((op) => op.name === body.operationName) && (
          <p class="muted graphql-hint">The document holds {operations.length} operations: choose the one to send.</p>
        )}
        <CodeEditor class="body-code graphql-query" label="GraphQL query" language="graphql" value={body.query} extensions={extensions} marks={marks} onChange={(query) => set({ query })} />
        <h4>Variables</h4>
        <CodeEditor class="graphql-variables" label="GraphQL variables" language="json" value={body.variables} check={(text) => (text.trim() === '' ? [] : parseMarks('json', text))} onChange={(variables) => set({ variables })} />
        <label class="graphql-schema-file">
          <span>Schema file</span>
          <input
            aria-label="Schema file"
            placeholder="schema.graphql in the project, or empty to introspect the URL"
            value={body.schemaFile}
            onChange={(e) => set({ schemaFile: (e.target as HTMLInputElement).value.trim() })}
          />
        </label>
      </div>
      {schema.docsOpen.value && <DocsExplorer state={schema} />}
    </div>
  );
}

function openDocs(schema: SchemaState, type: string | null): void {
  schema.docsAt.value = type;
  schema.docsOpen.value = true;
}

function SchemaLine({ schema, onRefresh }: { schema: SchemaState; onRefresh: () => void }) {
  const answer = schema.answer.value;
  const text = schema.loading.value
    ? 'Reading the schema…'
    : answer?.source === 'file'
      ? `Schema: ${answer.types.toLocaleString('en-US')} types from ${answer.from}`
      : answer?.source === 'introspection'
        ? `Schema: ${answer.types.toLocaleString('en-US')} types from ${answer.from}${answer.at ? `, introspected ${new Date(answer.at).toLocaleString()}` : ''}`
        : 'No schema yet';
  return (
    <>
      <span class="graphql-schema muted" data-testid="graphql-schema">
        {text}
      </span>
      {schema.error.value && (
        <span class="inline-error" role="alert">
          {schema.error.value}
        </span>
      )}
      {answer?.source !== 'file' && (
        <button class="button small" disabled={schema.loading.value} title="Ask the server for its schema (introspection) with this request's URL, headers and auth" onClick={onRefresh}>
          Introspect
        </button>
      )}
    </>
  );
}
