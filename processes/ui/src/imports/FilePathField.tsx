/** A document's file path: typed, or picked with the file chooser (the UI itself never reads files). */
import type { Ref } from 'preact';
import { pickFile } from './pick-file.js';

export function FilePathField({ value, onChange, inputRef }: { value: string; onChange: (path: string) => void; inputRef?: Ref<HTMLInputElement> }) {
  return (
    <label class="import-field">
      <span>File</span>
      <span class="file-pick">
        <input ref={inputRef} class="mono" aria-label="File path" placeholder="/path/to/openapi.yaml" value={value} onInput={(e) => onChange((e.target as HTMLInputElement).value)} />
        <button
          type="button"
          class="button"
          onClick={async () => {
            const path = await pickFile();
            if (path) onChange(path);
          }}
        >
          Choose…
        </button>
      </span>
    </label>
  );
}
