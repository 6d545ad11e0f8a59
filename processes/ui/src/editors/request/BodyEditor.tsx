/** The body: none, raw (JSON, XML, text, HTML, JavaScript), form, multipart or binary, each with its own draft. */
import { useSignal } from '@preact/signals';
import type { Body, BodyKind, MultipartPart, RawLanguage } from '../../../../../protocol/model/request.js';
import { RowsTable } from '../../components/RowsTable.js';
import { CloseIcon } from '../../components/Icons.js';
import { BodyFileSource, chooseBodyFile, isOutsideProject } from '../../components/FileChooser.js';
import { useRef } from 'preact/hooks';
import { formatBody, parseProblem } from './format.js';
import type { Placeholders } from './json-text.js';
import { CodeEditor, type CodeEditorHandle, type CodeMark } from '../../code/CodeEditor.js';
import { WrapToggle } from '../../code/WrapToggle.js';
import { VarField, useVariableSupport } from '../../code/VarField.js';
import { dismissTopic } from '../../state/toasts.js';

/** The topic of a toast about the body's format: a newer one replaces it (commands.ts). */
export const FORMAT_TOPIC = 'format-body';

/** A raw body's parse problem, marked at its line and column as the user types. */
export function parseMarks(language: string, text: string, placeholders: Placeholders = {}): CodeMark[] {
  const problem = parseProblem(language, text, placeholders);
  return problem ? [{ severity: 'error', message: problem.message, from: problem.from, to: problem.to }] : [];
}

const KINDS: [BodyKind, string][] = [
  ['none', 'None'],
  ['raw', 'Raw'],
  ['form', 'Form (urlencoded)'],
  ['multipart', 'Multipart'],
  ['binary', 'Binary'],
];
const LANGUAGES: [RawLanguage, string][] = [
  ['json', 'JSON'],
  ['xml', 'XML'],
  ['text', 'Text'],
  ['html', 'HTML'],
  ['javascript', 'JavaScript'],
];

/** `project`: the root of the request's project, where body files live. */
export function BodyEditor({ body, project, onChange, extra }: { body: Body; project: string; onChange(body: Body): void; extra?: preact.ComponentChildren }) {
  const formatError = useSignal('');
  const editor = useRef<CodeEditorHandle | null>(null);
  // The latest body for the editor's callbacks, which outlive a render.
  const current = useRef(body);
  current.current = body;
  const set = (patch: Partial<Body>) => onChange({ ...current.current, ...patch });
  const variables = useVariableSupport(project);
  return (
    <div class="body-editor">
      <div class="segmented" role="radiogroup" aria-label="Body kind">
        {KINDS.map(([kind, label]) => (
          <button key={kind} role="radio" aria-checked={body.kind === kind} class={body.kind === kind ? 'active' : ''} onClick={() => set({ kind })}>
            {label}
          </button>
        ))}
      </div>
      {body.kind === 'none' && <p class="muted">This request has no body.</p>}
      {body.kind === 'raw' && (
        <>
          <div class="toolbar">
            <select aria-label="Raw language" value={body.raw.language} onChange={(e) => set({ raw: { ...body.raw, language: (e.target as HTMLSelectElement).value as RawLanguage } })}>
              {LANGUAGES.map(([l, label]) => (
                <option key={l} value={l}>
                  {label}
                </option>
              ))}
            </select>
            {(body.raw.language === 'json' || body.raw.language === 'xml') && (
              <button
                class="button small"
                title="Format (Shift+Alt+F): lays the body out; every ${name} stays as written"
                onClick={() => {
                  const result = formatBody(body.raw.language, body.raw.text);
                  if (result.ok) {
                    formatError.value = '';
                    dismissTopic(FORMAT_TOPIC);
                    set({ raw: { ...body.raw, text: result.text } });
                  } else {
                    formatError.value = result.message;
                    editor.current?.reveal(result.problem);
                  }
                }}
              >
                Format
              </button>
            )}
            <WrapToggle />
            {extra}
          </div>
          {formatError.value && (
            <p class="inline-error" role="alert">
              {formatError.value}
            </p>
          )}
          <CodeEditor
            class="body-code"
            label="Body"
            language={body.raw.language}
            value={body.raw.text}
            check={(text) => parseMarks(body.raw.language, text)}
            extensions={variables}
            handle={(h) => (editor.current = h)}
            onChange={(text) => {
              formatError.value = '';
              set({ raw: { ...body.raw, text } });
            }}
          />
        </>
      )}
      {body.kind === 'form' && <RowsTable label="Form field" project={project} rows={body.form} onChange={(form) => set({ form })} />}
      {body.kind === 'multipart' && <MultipartEditor parts={body.multipart} project={project} onChange={(multipart) => set({ multipart })} />}
      {body.kind === 'binary' && (
        <div class="form-grid binary-body">
          <label>
            <span>File</span>
            <span class="file-pick">
              <input aria-label="Binary file" value={body.binary.file} placeholder="files/photo.png" onInput={(e) => set({ binary: { ...body.binary, file: (e.target as HTMLInputElement).value } })} />
              <button
                class="button"
                onClick={async () => {
                  const file = await chooseBodyFile(project);
                  if (file) set({ binary: { ...body.binary, file } });
                }}
              >
                Choose…
              </button>
            </span>
            <BodyFileSource file={body.binary.file} />
          </label>
          <label>
            <span>Content type</span>
            <input aria-label="Binary content type" value={body.binary.contentType} onInput={(e) => set({ binary: { ...body.binary, contentType: (e.target as HTMLInputElement).value } })} />
          </label>
        </div>
      )}
    </div>
  );
}

function MultipartEditor({ parts, project, onChange }: { parts: MultipartPart[]; project: string; onChange(parts: MultipartPart[]): void }) {
  const update = (i: number, part: MultipartPart) => onChange(parts.map((p, j) => (j === i ? part : p)));
  return (
    <div class="multipart">
      <table class="rows-table name-value" aria-label="Multipart parts">
        <tbody>
          {parts.map((part, i) => (
            <tr key={i} class={part.enabled ? '' : 'disabled'}>
              <td class="cell-check">
                <input type="checkbox" aria-label={`Send ${part.name}`} checked={part.enabled} onChange={(e) => update(i, { ...part, enabled: (e.target as HTMLInputElement).checked })} />
              </td>
              <td>
                <input class="cell-input" aria-label="Part name" placeholder="name" value={part.name} onInput={(e) => update(i, { ...part, name: (e.target as HTMLInputElement).value })} />
              </td>
              <td>
                {part.kind === 'text' ? (
                  <VarField class="cell-input" label={`Value of ${part.name}`} placeholder="value" value={part.value} project={project} onChange={(value) => update(i, { ...part, value })} />
                ) : (
                  <>
                    <span class="file-pick">
                      <input class="cell-input" aria-label={`File of ${part.name}`} placeholder="files/photo.png" value={part.file} onInput={(e) => update(i, { ...part, file: (e.target as HTMLInputElement).value })} />
                      <button
                        class="button small"
                        onClick={async () => {
                          const file = await chooseBodyFile(project);
                          if (file) update(i, { ...part, file });
                        }}
                      >
                        Choose…
                      </button>
                    </span>
                    {isOutsideProject(part.file) && <BodyFileSource file={part.file} />}
                  </>
                )}
              </td>
              <td class="cell-type">
                {part.kind === 'file' && <input class="cell-input" aria-label={`Content type of ${part.name}`} placeholder="content type" value={part.contentType} onInput={(e) => update(i, { ...part, contentType: (e.target as HTMLInputElement).value })} />}
              </td>
              <td class="cell-action">
                <button class="icon-button" aria-label={`Remove ${part.name}`} onClick={() => onChange(parts.filter((_, j) => j !== i))}>
                  <CloseIcon />
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div class="toolbar">
        <button class="button small" onClick={() => onChange([...parts, { kind: 'text', name: '', value: '', enabled: true }])}>
          Add text field
        </button>
        <button class="button small" onClick={() => onChange([...parts, { kind: 'file', name: '', file: '', contentType: 'application/octet-stream', enabled: true }])}>
          Add file
        </button>
      </div>
    </div>
  );
}
