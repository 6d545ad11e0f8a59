/** The list items of files that did not load: file and line, the rule broken, the message. */
import type { Problem } from '../../../../protocol/model/common.js';

export function LoadProblemItems({ problems }: { problems: Problem[] }) {
  return (
    <>
      {problems.map((p, i) => (
        <li key={i}>
          <code>
            {p.file}
            {p.line ? `:${p.line}` : ''}
          </code>{' '}
          <span class="badge">{p.rule}</span> {p.message}
        </li>
      ))}
    </>
  );
}
