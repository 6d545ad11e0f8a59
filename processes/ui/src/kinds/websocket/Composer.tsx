/**
 * A WebSocket request's Messages section: a composer for a text, JSON (checked, formatted on
 * demand; `${name}` expands when sent) or binary message (a file in the project), sent over the
 * open session, and the request's saved messages (what `parley run` sends, in order), each sent
 * with a click or loaded into the composer.
 */
import { formatBody } from '../../editors/request/format.js';
import { parseMarks } from '../../editors/request/BodyEditor.js';
import { CodeEditor } from '../../code/CodeEditor.js';
import { useVariableSupport } from '../../code/VarField.js';
import { openForm } from '../../state/overlays.js';
import { CloseIcon } from '../../components/Icons.js';
import type { SavedMessage, SocketMessage, SocketMessageFormat, WebSocketRequest } from '../../../../../protocol/model/websocket.js';
import { editSocket, ping, sendMessage, type SocketTabState } from './socket-tabs.js';
import { chooseProjectFile, formatBytes } from '../../components/FileChooser.js';
import { call } from '../../state/rpc.js';
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';

const FORMATS: [SocketMessageFormat, string][] = [
  ['text', 'Text'],
  ['json', 'JSON'],
  ['binary', 'Binary (file)'],
];

export function Composer({ state, draft }: { state: SocketTabState; draft: WebSocketRequest }) {
  const { message, problem, sending } = state.composer;
  const m = message.value;
  const set = (patch: Partial<SocketMessage>) => (message.value = { ...message.value, ...patch });
  const variables = useVariableSupport(state.tab.project);
  const open = state.live.value?.state.value === 'open';
  const format = () => {
    const result = formatBody('json', m.text);
    if (result.ok) set({ text: result.text });
    else problem.value = result.message;
  };
  const saveAs = () =>
    openForm({
      title: 'Save this message',
      submitLabel: 'Save',
      fields: [{ name: 'name', label: 'Name', kind: 'text', value: `Message ${draft.messages.length + 1}` }],
      onSubmit: ({ name }) => {
        if (!name?.trim()) return 'A saved message needs a name.';
        editSocket(state, (r) => ({ ...r, messages: [...r.messages, { name: name.trim(), ...message.value }] }));
        return undefined;
      },
    });
  return (
    <div class="socket-composer">
      <div class="toolbar">
        <div class="segmented" role="radiogroup" aria-label="Message format">
          {FORMATS.map(([id, label]) => (
            <button key={id} role="radio" aria-checked={m.format === id} class={m.format === id ? 'active' : ''} onClick={() => set({ format: id })}>
              {label}
            </button>
          ))}
        </div>
        {m.format === 'json' && (
          <button class="button small" onClick={format}>
            Format
          </button>
        )}
        <span class="spacer" />
        <button class="button small" onClick={saveAs}>
          Save as message
        </button>
        <button class="button small" disabled={!open} title={open ? 'Send a ping frame: the server answers with a pong' : 'Connect first'} onClick={() => void ping(state)}>
          Ping
        </button>
        <button class="button primary small" disabled={!open || sending.value} title={open ? 'Send over the open connection' : 'Connect first'} onClick={() => void sendMessage(state, message.value)}>
          Send message
        </button>
      </div>
      {m.format === 'binary' ? (
        <div class="socket-file">
          <label>
            <span>File in the project</span>
            <input class="mono" aria-label="Message file" placeholder="files/frame.bin" value={m.file} onInput={(e) => set({ file: (e.target as HTMLInputElement).value })} />
          </label>
          <button
            class="button small"
            onClick={async () => {
              const chosen = await chooseProjectFile(state.tab.project, 'A binary message');
              if (chosen) set({ file: chosen.path });
            }}
          >
            Choose…
          </button>
          <MessageFile project={state.tab.project} file={m.file} />
        </div>
      ) : (
        <CodeEditor
          class="socket-message"
          label="Message"
          language={m.format === 'json' ? 'json' : 'text'}
          value={m.text}
          extensions={variables}
          check={m.format === 'json' ? (text) => (text.trim() === '' ? [] : parseMarks('json', text)) : undefined}
          onChange={(text) => set({ text })}
        />
      )}
      {problem.value && (
        <p class="form-error" role="alert">
          {problem.value}
        </p>
      )}
      <h4>Saved messages</h4>
      {draft.messages.length === 0 ? (
        <p class="muted">None yet. Save the message above to send it again with a click; <code>parley run</code> sends the saved messages in order.</p>
      ) : (
        <ol class="saved-messages" aria-label="Saved messages">
          {draft.messages.map((saved, index) => (
            <SavedRow key={index} saved={saved} open={open} onSend={() => void sendMessage(state, saved)} onLoad={() => (message.value = { format: saved.format, text: saved.text, file: saved.file })} onRemove={() => editSocket(state, (r) => ({ ...r, messages: r.messages.filter((_, i) => i !== index) }))} />
          ))}
        </ol>
      )}
    </div>
  );
}

/** The binary message's file as the composer shows it: its name and size, or why it cannot be sent. */
function MessageFile({ project, file }: { project: string; file: string }) {
  const info = useSignal<{ file: string; size?: number; problem?: string } | null>(null);
  useEffect(() => {
    const named = file.trim();
    if (named === '') return void (info.value = null);
    let current = true;
    call('project.fileSize', { project, file: named }).then(
      ({ size }) => void (current && (info.value = { file: named, size })),
      (err: Error) => void (current && (info.value = { file: named, problem: err.message })),
    );
    return () => void (current = false);
  }, [project, file]);
  const shown = info.value;
  if (file.trim() === '') return <span class="file-source muted">Choose… picks a file in the project, or copies one in when you agree.</span>;
  if (!shown || shown.file !== file.trim()) return <span class="file-source muted">…</span>;
  if (shown.problem) {
    return (
      <span class="file-source outside" role="status">
        {shown.problem}
      </span>
    );
  }
  return (
    <span class="file-source" data-testid="message-file">
      <strong>{file.trim().split('/').pop()}</strong> <span class="muted">{formatBytes(shown.size!)}</span>
    </span>
  );
}

function SavedRow({ saved, open, onSend, onLoad, onRemove }: { saved: SavedMessage; open: boolean; onSend: () => void; onLoad: () => void; onRemove: () => void }) {
  const preview = saved.format === 'binary' ? saved.file : saved.text.replace(/\s+/g, ' ').slice(0, 120);
  return (
    <li>
      <strong>{saved.name}</strong>
      <span class="muted">{saved.format}</span>
      <code class="saved-preview">{preview}</code>
      <span class="spacer" />
      <button class="button small" disabled={!open} aria-label={`Send ${saved.name}`} onClick={onSend}>
        Send
      </button>
      <button class="button small" aria-label={`Edit ${saved.name}`} onClick={onLoad}>
        Load
      </button>
      <button class="icon-button" aria-label={`Remove ${saved.name}`} onClick={onRemove}>
        <CloseIcon />
      </button>
    </li>
  );
}
