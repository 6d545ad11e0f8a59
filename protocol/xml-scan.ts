/**
 * A linear scan of XML text before any tree is built from it: the WSDL reader's (wsdl/xml.ts)
 * and the body query engine's (processes/checker/engine/body-query.ts). No DTD at all: any `<!`
 * that is not a comment or CDATA section (a DOCTYPE, an ENTITY declaration) is refused, so no
 * entity can be declared, expanded or fetched. Nesting, nodes and attributes per element are
 * counted against limits, since a tree costs heap per node and the code walking it recurses.
 * Each caller words the refusal for its own reader.
 */

export interface XmlScanLimits {
  /** Elements nested inside each other. */
  maxDepth: number;
  /** Elements, attributes, comments, processing instructions and CDATA sections. */
  maxNodes: number;
  /** Attributes one element may have. */
  maxAttributes: number;
}

export type XmlScan =
  | { ok: true; nodes: number }
  | {
      ok: false;
      /** `dtd`: a DOCTYPE or ENTITY declaration; `declaration`: another `<!…`. */
      refused: 'dtd' | 'declaration' | 'nodes' | 'attributes' | 'depth';
    };

/**
 * Scans `text` once. Stops at the first limit passed; markup left open (an unclosed comment or
 * tag) ends the scan, for the parser to name.
 */
export function scanXml(text: string, limits: XmlScanLimits): XmlScan {
  let depth = 0;
  let nodes = 0;
  let i = text.indexOf('<');
  const skipTo = (end: string, from: number): boolean => {
    const at = text.indexOf(end, from);
    if (at === -1) return false;
    i = text.indexOf('<', at + end.length);
    return true;
  };
  while (i !== -1) {
    if (text.startsWith('</', i)) {
      depth--;
      i = text.indexOf('<', i + 2);
      continue;
    }
    if (text.startsWith('<!--', i) || text.startsWith('<![CDATA[', i) || text.startsWith('<?', i)) {
      if (++nodes > limits.maxNodes) return { ok: false, refused: 'nodes' };
      const ok = text.startsWith('<!--', i) ? skipTo('-->', i + 4) : text.startsWith('<?', i) ? skipTo('?>', i + 2) : skipTo(']]>', i + 9);
      if (!ok) return { ok: true, nodes };
      continue;
    }
    if (text.startsWith('<!', i)) return { ok: false, refused: /^<!(DOCTYPE|ENTITY)/i.test(text.slice(i, i + 9)) ? 'dtd' : 'declaration' };
    // A start tag: find its end, stepping over quoted attribute values (each one an attribute).
    if (++nodes > limits.maxNodes) return { ok: false, refused: 'nodes' };
    let j = i + 1;
    let quoteChar = '';
    let attributes = 0;
    for (; j < text.length; j++) {
      const c = text[j];
      if (quoteChar) {
        if (c === quoteChar) quoteChar = '';
      } else if (c === '"' || c === "'") {
        quoteChar = c;
        if (++nodes > limits.maxNodes) return { ok: false, refused: 'nodes' };
        if (++attributes > limits.maxAttributes) return { ok: false, refused: 'attributes' };
      } else if (c === '>') break;
    }
    if (j >= text.length) return { ok: true, nodes };
    if (text[j - 1] !== '/' && ++depth > limits.maxDepth) return { ok: false, refused: 'depth' };
    i = text.indexOf('<', j + 1);
  }
  return { ok: true, nodes };
}
