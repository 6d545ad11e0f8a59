/**
 * A response body as the user reads it: JSON laid out with contract problems marked at their
 * property, XML and HTML indented, text as it came, images shown, binary described. Text opens in
 * a read-only code editor (line numbers, folding, search with Ctrl+F, soft wrap), which draws only
 * the lines in view, so a 10 MB body opens without freezing the page.
 */
import { useEffect, useMemo, useRef } from 'preact/hooks';
import type { Signal } from '@preact/signals';
import type { Exchange } from '../../../../../protocol/model/history.js';
import type { SendResult } from '../../../../../protocol/model/exchange.js';
import { formatBytes } from '../../components/FileChooser.js';
import { CodeEditor, type CodeEditorHandle, type CodeMark } from '../../code/CodeEditor.js';
import type { CodeLanguage } from '../../code/languages.js';
import { WrapToggle } from '../../code/WrapToggle.js';
import { bodyKind as kindOf, decodeText, header, prettyText, type BodyKind } from './body-view.js';
import { lineForPointer, prettyJson } from './pretty-json.js';
import { HtmlPreview } from './HtmlPreview.js';

export function BodyView({ result, kind = kindOf(result), exchange, mode }: { result: SendResult; kind?: BodyKind; exchange?: Exchange; mode?: Signal<'pretty' | 'preview'> }) {
  const imageUrl = useMemo(() => (kind === 'image' ? URL.createObjectURL(new Blob([result.body.bytes as Uint8Array<ArrayBuffer>], { type: header(result, 'content-type') })) : null), [result, kind]);
  useEffect(() => () => void (imageUrl && URL.revokeObjectURL(imageUrl)), [imageUrl]);
  const spoolNote = result.body.spooledTo ? (
    <p class="note">
      Showing the first {formatBytes(result.body.bytes.byteLength)} of {formatBytes(result.body.size)}. The whole body was saved to <code>{result.body.spooledTo}</code>.
    </p>
  ) : null;
  if (kind === 'empty') return <p class="muted">No body.</p>;
  if (kind === 'image' && imageUrl) return <img class="body-image" src={imageUrl} alt="Response image" />;
  if (kind === 'binary') {
    return (
      <>
        {spoolNote}
        <p class="muted">
          Binary body ({formatBytes(result.body.size)}, {header(result, 'content-type') ?? 'no content type'}).
        </p>
      </>
    );
  }
  if (kind === 'json') return <JsonBody result={result} exchange={exchange} note={spoolNote} />;
  const text = decodeText(result);
  if (kind === 'html' && mode) {
    return (
      <div class="body-view">
        <div class="toolbar">
          <div class="segmented" role="group" aria-label="HTML view">
            <button class={mode.value === 'pretty' ? 'active' : ''} aria-pressed={mode.value === 'pretty'} onClick={() => (mode.value = 'pretty')}>
              Pretty
            </button>
            <button class={mode.value === 'preview' ? 'active' : ''} aria-pressed={mode.value === 'preview'} onClick={() => (mode.value = 'preview')}>
              Preview
            </button>
          </div>
          {mode.value === 'pretty' && <WrapToggle />}
        </div>
        {spoolNote}
        {mode.value === 'preview' ? <HtmlPreview html={text} /> : <TextBody text={text} language="html" />}
      </div>
    );
  }
  return (
    <div class="body-view">
      <div class="toolbar">
        <WrapToggle />
      </div>
      {spoolNote}
      <TextBody text={prettyText(kind, text)} language={kind === 'xml' ? 'xml' : kind === 'html' ? 'html' : 'text'} />
    </div>
  );
}

function TextBody({ text, language, marks, handle }: { text: string; language: CodeLanguage; marks?: CodeMark[]; handle?(h: CodeEditorHandle | null): void }) {
  return <CodeEditor class="response-code" label="Response body" language={language} value={text} readOnly marks={marks} handle={handle} />;
}

const NO_PROBLEMS: never[] = [];

/** JSON laid out with two spaces; each contract problem marked at the line of its property. */
function JsonBody({ result, exchange, note }: { result: SendResult; exchange?: Exchange; note: preact.ComponentChildren }) {
  const text = useMemo(() => decodeText(result), [result]);
  const pretty = useMemo(() => {
    try {
      return prettyJson(JSON.parse(text));
    } catch {
      return null;
    }
  }, [text]);
  const shown = useMemo(() => (pretty ? pretty.lines.join('\n') : text), [pretty, text]);
  const problems = exchange?.verdict?.problems ?? NO_PROBLEMS;
  const marks = useMemo<CodeMark[]>(
    () => (pretty ? problems.map((p) => ({ severity: 'error', message: `Contract: ${p.pointer || '/'}: ${p.message}`, line: lineForPointer(pretty, p.pointer) + 1 })) : []),
    [pretty, problems],
  );
  const editor = useRef<CodeEditorHandle | null>(null);
  return (
    <div class="body-view json-body">
      <div class="toolbar">
        <WrapToggle />
        {!pretty && <span class="muted">Not valid JSON: shown as it came.</span>}
      </div>
      {note}
      <TextBody text={shown} language="json" marks={marks} handle={(h) => (editor.current = h)} />
      {problems.length > 0 && (
        <div class="problems-panel" role="region" aria-label="Problems">
          <h4>
            Problems <span class="count">{problems.length}</span>
          </h4>
          <ul>
            {problems.map((p, i) => (
              <li key={i}>
                <button class="problem-row" onClick={() => pretty && editor.current?.reveal({ line: lineForPointer(pretty, p.pointer) + 1 }, true)}>
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
