/**
 * Renders an HTML body as a static page (SPEC "What the service does" 1): scripts do not run,
 * forms do not submit, links do not navigate, nothing the page references is fetched; inline
 * styles and data: images still render. Three layers, each enough on its own for scripts and
 * fetches: the markup is cleaned by DOMPurify (sanitize-html.ts: no script, frame, object, link,
 * base or refresh; no event handler, href, form action or source other than data:); the frame is
 * sandboxed with no permissions (no scripts, no forms, no navigation of itself or the app, an
 * opaque origin); and the page carries its own Content-Security-Policy allowing only inline
 * styles and data: images and fonts, on top of the app's, which a srcdoc frame inherits. CSS
 * `url()`s, `@import` and `@font-face` that the cleaning leaves are stopped by that policy.
 */
import { useMemo } from 'preact/hooks';
import { sanitizeHtml } from './sanitize-html.js';

export function HtmlPreview({ html }: { html: string }) {
  const safe = useMemo(() => sanitizeHtml(html), [html]);
  return (
    <div class="html-preview-pane">
      <p class="html-preview-note" data-testid="html-preview-note">
        A static view: links are not followed, scripts do not run and nothing the page refers to is fetched.
      </p>
      <iframe class="html-preview" title="HTML preview (links are not followed)" sandbox="" referrerpolicy="no-referrer" srcdoc={safe} />
    </div>
  );
}
