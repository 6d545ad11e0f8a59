/** Syntax highlighting for the Pretty view: JSON by tokens, XML/HTML by tags. No HTML is ever injected. */
import type { JSX } from 'preact';

const JSON_TOKEN = /("(?:\\.|[^"\\])*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|(true|false|null)|([{}[\],])/g;

export function highlightJson(text: string): JSX.Element[] {
  const out: JSX.Element[] = [];
  let last = 0;
  let key = 0;
  for (const m of text.matchAll(JSON_TOKEN)) {
    if (m.index! > last) out.push(<span key={key++}>{text.slice(last, m.index)}</span>);
    if (m[1] !== undefined) {
      out.push(
        <span key={key++} class={m[2] ? 'tok-key' : 'tok-str'}>
          {m[1]}
        </span>,
      );
      if (m[2]) out.push(<span key={key++}>{m[2]}</span>);
    } else if (m[3] !== undefined) out.push(<span key={key++} class="tok-num">{m[3]}</span>);
    else if (m[4] !== undefined) out.push(<span key={key++} class="tok-lit">{m[4]}</span>);
    else out.push(<span key={key++} class="tok-punct">{m[5]}</span>);
    last = m.index! + m[0].length;
  }
  if (last < text.length) out.push(<span key={key++}>{text.slice(last)}</span>);
  return out;
}

const TAG = /(<\/?)([\w:.-]+)((?:\s+[\w:.-]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)(\s*\/?>)|(<!--[\s\S]*?-->)/g;

export function highlightMarkup(text: string): JSX.Element[] {
  const out: JSX.Element[] = [];
  let last = 0;
  let key = 0;
  for (const m of text.matchAll(TAG)) {
    if (m.index! > last) out.push(<span key={key++}>{text.slice(last, m.index)}</span>);
    if (m[5]) out.push(<span key={key++} class="tok-comment">{m[5]}</span>);
    else {
      out.push(<span key={key++} class="tok-punct">{m[1]}</span>);
      out.push(<span key={key++} class="tok-key">{m[2]}</span>);
      if (m[3]) {
        for (const part of m[3].split(/(\s+[\w:.-]+)(?==)/)) {
          if (/^\s+[\w:.-]+$/.test(part)) out.push(<span key={key++} class="tok-attr">{part}</span>);
          else if (part) out.push(<span key={key++} class="tok-str">{part}</span>);
        }
      }
      out.push(<span key={key++} class="tok-punct">{m[4]}</span>);
    }
    last = m.index! + m[0].length;
  }
  if (last < text.length) out.push(<span key={key++}>{text.slice(last)}</span>);
  return out;
}
