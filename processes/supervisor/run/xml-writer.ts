/**
 * A tiny XML writer for the JUnit report: elements with attributes and text, every value
 * escaped, and characters XML 1.0 cannot hold at all (control characters other than tab and
 * line breaks, lone surrogates, U+FFFE and U+FFFF) replaced by U+FFFD, so any response or
 * message text gives a document a CI system's parser reads.
 */

export interface XmlElement {
  name: string;
  attributes?: Record<string, string | number>;
  children?: XmlElement[];
  text?: string;
}

// Exactly the characters XML 1.0 forbids (control characters are the point here).
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function xmlText(value: string): string {
  return value.replace(NOT_XML, '\uFFFD').replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

export function xmlAttribute(value: string): string {
  // Line breaks and tabs in an attribute are normalised away by parsers unless written as references.
  return xmlText(value).replace(/["\t\n\r]/g, (c) => (c === '"' ? '&quot;' : `&#${c.charCodeAt(0)};`));
}

export function writeXml(root: XmlElement): string {
  return `${XML_DECLARATION}\n${renderXml(root, 0)}`;
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/** One element and what it holds, indented two spaces a level from `depth`, each line ending in a line break. */
export function renderXml(el: XmlElement, depth: number): string {
  const lines: string[] = [];
  const write = (el: XmlElement, depth: number) => {
    const pad = '  '.repeat(depth);
    const children = el.children ?? [];
    if (children.length === 0 && el.text === undefined) lines.push(`${pad}<${el.name}${xmlAttributes(el)}/>`);
    else if (children.length === 0) lines.push(`${pad}<${el.name}${xmlAttributes(el)}>${xmlText(el.text ?? '')}</${el.name}>`);
    else {
      lines.push(`${pad}${openTag(el)}`);
      for (const child of children) write(child, depth + 1);
      lines.push(`${pad}</${el.name}>`);
    }
  };
  write(el, depth);
  return `${lines.join('\n')}\n`;
}

/** `<name attr="…">`, for an element whose children are written one by one. */
export function openTag(el: Pick<XmlElement, 'name' | 'attributes'>): string {
  return `<${el.name}${xmlAttributes(el)}>`;
}

function xmlAttributes(el: Pick<XmlElement, 'attributes'>): string {
  return Object.entries(el.attributes ?? {})
    .map(([k, v]) => ` ${k}="${xmlAttribute(String(v))}"`)
    .join('');
}
