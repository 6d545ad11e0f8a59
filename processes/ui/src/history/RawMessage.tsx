/**
 * A recorded request or response as raw HTTP text: its first line, its headers, and its body made
 * readable (JSON and XML indented). Shared by History's entry view and the HTTP Log's, which show
 * the same exchanges from two places.
 */
import type { ComponentChildren } from 'preact';
import type { Header } from '../../../../protocol/model/exchange.js';
import { readableBody } from './format.js';

export function RawMessage(props: {
  /** `GET https://…` or `200 OK`, and whatever follows it on the line. */
  firstLine: ComponentChildren;
  headers: readonly Header[];
  /** Left out when empty, or when a stream is shown instead. */
  body?: string | undefined;
  /** Said after the body when the record cut it. */
  cutNote?: string | false | undefined;
}) {
  return (
    <pre class="raw mono">
      {props.firstLine}
      {'\n'}
      {props.headers.map(([n, v]) => `${n}: ${v}`).join('\n')}
      {props.body ? `\n\n${readableBody(props.headers, props.body)}` : ''}
      {props.cutNote ? `\n… (${props.cutNote})` : ''}
    </pre>
  );
}
