/**
 * Renders an HTML body as a static page (SPEC "What the service does" 1): scripts do not run,
 * forms do not submit, links do not navigate, nothing the page references is fetched; inline
 * styles and data: images still render. Three layers, each enough on its own for scripts and
 * fetches: the markup is cleaned (scripts, frames, objects, links, base and refresh removed; event
 * handlers, form actions, hrefs and every non-data: source dropped); the frame is sandboxed with
 * no permissions (no scripts, no forms, no navigation of itself or the app, an opaque origin);
 * and the page carries its own Content-Security-Policy allowing only inline styles and data:
 * images and fonts, on top of the app's, which a srcdoc frame inherits. CSS `url()`s, `@import`
 * and `@font-face` that the cleaning leaves are stopped by that policy.
 */
import { useMemo } from 'preact/hooks';

export const PREVIEW_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; form-action 'none'; base-uri 'none'";

/** Attributes that make the browser fetch or navigate, besides `src` and `href`. */
const FETCHING = new Set(['srcset', 'imagesrcset', 'poster', 'background', 'lowsrc', 'dynsrc', 'longdesc', 'ping', 'action', 'formaction', 'manifest', 'data', 'codebase', 'archive', 'cite', 'usemap', 'xlink:href', 'itemtype']);

export function sanitizeHtml(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  doc.querySelectorAll('script, noscript, iframe, frame, frameset, object, embed, applet, portal, link, meta, base, template').forEach((el) => el.remove());
  for (const el of Array.from(doc.querySelectorAll('*'))) {
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      if (name.startsWith('on') || FETCHING.has(name) || name === 'href') el.removeAttribute(attr.name);
      else if (name === 'src' && !/^\s*data:/i.test(attr.value)) el.removeAttribute(attr.name);
    }
    if (el.tagName === 'A') el.setAttribute('aria-disabled', 'true');
  }
  const meta = doc.createElement('meta');
  meta.setAttribute('http-equiv', 'Content-Security-Policy');
  meta.setAttribute('content', PREVIEW_CSP);
  doc.head.prepend(meta);
  return `<!doctype html>${doc.documentElement.outerHTML}`;
}

export function HtmlPreview({ html }: { html: string }) {
  const safe = useMemo(() => sanitizeHtml(html), [html]);
  return <iframe class="html-preview" title="HTML preview" sandbox="" referrerpolicy="no-referrer" srcdoc={safe} />;
}
