/**
 * A response body as the user reads it: JSON laid out with contract problems marked at their
 * property (or as a folding tree), XML and HTML indented, text as it came, images shown, binary
 * described; Copy and Save for all of them. Text opens in a read-only code editor (line numbers,
 * folding, search with Ctrl+F, soft wrap), which draws only the lines in view, so a 10 MB body
 * opens without freezing the page.
 */
import { useEffect, useMemo, useRef } from 'preact/hooks';
import type { Signal } from '@preact/signals';
import type { Exchange } from '../../../../../protocol/model/history.js';
import type { SendResult } from '../../../../../protocol/model/exchange.js';
import { formatBytes } from '../../components/FileChooser.js';
import { CodeEditor, type CodeEditorHandle, type CodeMark } from '../../code/CodeEditor.js';
import type { CodeLanguage } from '../../code/languages.js';
import { WrapToggle } from '../../code/WrapToggle.js';
import { toast } from '../../state/toasts.js';
import { bodyKind as kindOf, decodeText, header, prettyHtml, prettyText, type BodyKind } from './body-view.js';
import { lineForPointer, prettyJson, type PrettyJson } from './pretty-json.js';
import { HtmlPreview } from './HtmlPreview.js';
import { JsonTree } from './JsonTree.js';
import { downloadName } from './download-name.js';

/** How a body is shown: laid out as text, as a tree (JSON), or rendered (HTML). */
export type BodyMode = 'pretty' | 'tree' | 'preview';

const NO_PROBLEMS: never[] = [];

export function BodyView({ result, kind = kindOf(result), exchange, mode }: { result: SendResult; kind?: BodyKind; exchange?: Exchange; mode?: Signal<BodyMode> }) {
  const imageUrl = useMemo(() => (kind === 'image' ? URL.createObjectURL(new Blob([result.body.bytes as Uint8Array<ArrayBuffer>], { type: header(result, 'content-type') })) : null), [result, kind]);
  useEffect(() => () => void (imageUrl && URL.revokeObjectURL(imageUrl)), [imageUrl]);
  const spoolNote = result.body.spooledTo ? (
    <p class="note">
      Showing the first {formatBytes(result.body.bytes.byteLength)} of {formatBytes(result.body.size)}. The whole body was saved to <code>{result.body.spooledTo}</code>.
    </p>
  ) : null;
  if (kind === 'empty') return <p class="muted">No body.</p>;
  const actions = <BodyActions result={result} />;
  if (kind === 'image' && imageUrl) {
    return (
      <div class="body-view">
        <div class="toolbar">
          <span class="spacer" />
          {actions}
        </div>
        <img class="body-image" src={imageUrl} alt="Response image" />
      </div>
    );
  }
  if (kind === 'binary') {
    return (
      <div class="body-view">
        <div class="toolbar">
          <span class="spacer" />
          {actions}
        </div>
        {spoolNote}
        <p class="muted">
          Binary body ({formatBytes(result.body.size)}, {header(result, 'content-type') ?? 'no content type'}).
        </p>
      </div>
    );
  }
  if (kind === 'json') return <JsonBody result={result} exchange={exchange} mode={mode} note={spoolNote} actions={actions} />;
  const text = decodeText(result);
  const preview = kind === 'html' && mode?.value === 'preview';
  return (
    <div class="body-view">
      <div class="toolbar">
        {kind === 'html' && mode && <ModeSwitch mode={mode} modes={[['pretty', 'Pretty'], ['preview', 'Preview']]} label="HTML view" />}
        {!preview && <WrapToggle />}
        <span class="spacer" />
        {actions}
      </div>
      {spoolNote}
      {preview ? <HtmlPreview html={text} /> : <TextBody text={kind === 'html' ? prettyHtml(text) : prettyText(kind, text)} language={kind === 'xml' ? 'xml' : kind === 'html' ? 'html' : 'text'} />}
    </div>
  );
}

function ModeSwitch({ mode, modes, label }: { mode: Signal<BodyMode>; modes: [BodyMode, string][]; label: string }) {
  const current = modes.some(([m]) => m === mode.value) ? mode.value : modes[0]![0];
  return (
    <div class="segmented" role="group" aria-label={label}>
      {modes.map(([m, name]) => (
        <button key={m} class={current === m ? 'active' : ''} aria-pressed={current === m} onClick={() => (mode.value = m)}>
          {name}
        </button>
      ))}
    </div>
  );
}

/** Copy the body as text, or save its bytes as a file (the browser's download: the app never writes it). */
function BodyActions({ result }: { result: SendResult }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(decodeText(result));
      toast('success', result.body.spooledTo ? `Copied the first ${formatBytes(result.body.bytes.byteLength)} of the body (the rest is in the saved file).` : 'Copied the body.');
    } catch (err) {
      toast('error', `The body could not be copied: ${(err as Error).message}`);
    }
  };
  const save = () => {
    const url = URL.createObjectURL(new Blob([result.body.bytes as Uint8Array<ArrayBuffer>], { type: header(result, 'content-type') ?? 'application/octet-stream' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = downloadName(result);
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  };
  return (
    <>
      <button class="button small" onClick={() => void copy()} title="Copy the body as text">
        Copy
      </button>
      <button class="button small" onClick={save} title={result.body.spooledTo ? `Saves the part shown; the whole body is in ${result.body.spooledTo}` : 'Save the body as a file'}>
        Save…
      </button>
    </>
  );
}

function TextBody({ text, language, marks, handle }: { text: string; language: CodeLanguage; marks?: CodeMark[]; handle?(h: CodeEditorHandle | null): void }) {
  return <CodeEditor class="response-code" label="Response body" language={language} value={text} readOnly marks={marks} handle={handle} />;
}

/** JSON laid out with two spaces, or as a tree; each contract problem marked at its property. */
function JsonBody({ result, exchange, mode, note, actions }: { result: SendResult; exchange?: Exchange; mode?: Signal<BodyMode>; note: preact.ComponentChildren; actions: preact.ComponentChildren }) {
  const text = useMemo(() => decodeText(result), [result]);
  const parsed = useMemo(() => {
    try {
      const value: unknown = JSON.parse(text);
      return { value, pretty: prettyJson(value) };
    } catch {
      return null;
    }
  }, [text]);
  const pretty: PrettyJson | null = parsed?.pretty ?? null;
  const shown = useMemo(() => (pretty ? pretty.lines.join('\n') : text), [pretty, text]);
  const problems = exchange?.verdict?.problems ?? NO_PROBLEMS;
  const marks = useMemo<CodeMark[]>(
    () => (pretty ? problems.map((p) => ({ severity: 'error', message: `Contract: ${p.pointer || '/'}: ${p.message}`, line: lineForPointer(pretty, p.pointer) + 1 })) : []),
    [pretty, problems],
  );
  const byPointer = useMemo(() => {
    const map = new Map<string, string[]>();
    for (const p of problems) map.set(p.pointer, [...(map.get(p.pointer) ?? []), p.message]);
    return map;
  }, [problems]);
  const editor = useRef<CodeEditorHandle | null>(null);
  const tree = parsed !== null && mode?.value === 'tree';
  return (
    <div class="body-view json-body">
      <div class="toolbar">
        {parsed && mode && <ModeSwitch mode={mode} modes={[['pretty', 'Pretty'], ['tree', 'Tree']]} label="JSON view" />}
        {!tree && <WrapToggle />}
        {!parsed && <span class="muted">Not valid JSON: shown as it came.</span>}
        <span class="spacer" />
        {actions}
      </div>
      {note}
      {tree ? <JsonTree value={parsed.value} problems={byPointer} /> : <TextBody text={shown} language="json" marks={marks} handle={(h) => (editor.current = h)} />}
      {problems.length > 0 && (
        <div class="problems-panel" role="region" aria-label="Problems">
          <h4>
            Problems <span class="count">{problems.length}</span>
          </h4>
          <ul>
            {problems.map((p, i) => (
              <li key={i}>
                <button
                  class="problem-row"
                  onClick={() => {
                    if (!pretty) return;
                    if (mode) mode.value = 'pretty';
                    // After the switch back from Tree has drawn the editor.
                    requestAnimationFrame(() => editor.current?.reveal({ line: lineForPointer(pretty, p.pointer) + 1 }, true));
                  }}
                >
                  <code>{p.pointer || '/'}</code> <span>{p.message}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
