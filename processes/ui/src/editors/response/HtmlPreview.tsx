/**
 * Renders an HTML body as a static page: scripts removed, forms and links made inert, and a
 * sandboxed frame with no permissions. The page's CSP (inherited by the frame) blocks every
 * remote fetch, while inline styles and data: images still render.
 */
import { useMemo } from 'preact/hooks';

export function sanitizeHtml(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  doc.querySelectorAll('script, noscript, iframe, frame, frameset, object, embed, link, meta[http-equiv], base').forEach((el) => el.remove());
  for (const el of Array.from(doc.querySelectorAll('*'))) {
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      if (name.startsWith('on') || name === 'formaction' || name === 'action' || name === 'srcset' || name === 'ping') el.removeAttribute(attr.name);
      else if ((name === 'href' || name === 'xlink:href') && el.tagName !== 'use') el.removeAttribute(attr.name);
      else if (name === 'src' && !/^data:/i.test(attr.value)) el.removeAttribute(attr.name);
    }
    if (el.tagName === 'A') el.setAttribute('aria-disabled', 'true');
  }
  return `<!doctype html>${doc.documentElement.outerHTML}`;
}

export function HtmlPreview({ html }: { html: string }) {
  const safe = useMemo(() => sanitizeHtml(html), [html]);
  return <iframe class="html-preview" title="HTML preview" sandbox="" srcdoc={safe} />;
}
