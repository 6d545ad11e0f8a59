/**
 * protobufjs cannot read every aggregate option value (`option (google.api.http) = { ... }` with
 * a list such as `additional_bindings: [ {...}, {...} ]`, which protoc takes), and a call never
 * needs an option's value. So each aggregate value, `= { ... }` wherever it stands (file, message,
 * field or method options), is read as an empty one: its text between the braces is blanked,
 * newlines kept so parse errors still name the right line. Strings and comments are skipped
 * over, so a brace inside them (`"/v1/{name}"`) counts for nothing.
 */
export function blankAggregateOptions(text: string): string {
  const out = text.split('');
  let i = 0;
  let pendingEquals = false;
  while (i < text.length) {
    const c = text[i]!;
    const skipped = skipStringOrComment(text, i);
    if (skipped > i) {
      i = skipped;
      continue;
    }
    if (c === '=') pendingEquals = true;
    else if (c === '{' && pendingEquals) {
      const end = matchingBrace(text, i);
      for (let j = i + 1; j < end; j++) if (out[j] !== '\n') out[j] = ' ';
      i = end;
      pendingEquals = false;
      continue;
    } else if (!/\s/.test(c)) pendingEquals = false;
    i++;
  }
  return out.join('');
}

/** The index after the string or comment starting at `i`, or `i` when none starts there. */
function skipStringOrComment(text: string, i: number): number {
  const c = text[i];
  if (c === '"' || c === "'") {
    let j = i + 1;
    while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
    return j + 1;
  }
  if (c === '/' && text[i + 1] === '/') {
    const end = text.indexOf('\n', i);
    return end === -1 ? text.length : end;
  }
  if (c === '/' && text[i + 1] === '*') {
    const end = text.indexOf('*/', i + 2);
    return end === -1 ? text.length : end + 2;
  }
  return i;
}

/** The index of the brace closing the one at `open` (the text's end when it is never closed). */
function matchingBrace(text: string, open: number): number {
  let depth = 0;
  let i = open;
  while (i < text.length) {
    const skipped = skipStringOrComment(text, i);
    if (skipped > i) {
      i = skipped;
      continue;
    }
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
    i++;
  }
  return text.length;
}
