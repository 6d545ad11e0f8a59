/** The soft-wrap switch shown in every code editor's toolbar. */
import { toggleWrapLines, wrapLines } from './wrap.js';

export function WrapToggle() {
  return (
    <button class={`button small toggle${wrapLines.value ? ' active' : ''}`} aria-pressed={wrapLines.value} title="Wrap long lines (every editor)" onClick={toggleWrapLines}>
      Wrap
    </button>
  );
}
