/**
 * The HTML preview's markup, made static by DOMPurify (a sanitizer kept up against mutation XSS:
 * markup that one parse reads as text and the next as elements, which a hand-written cleaner of
 * ours let through, issue 26). On top of its defaults: nothing that navigates or fetches stays
 * (every href, every source that is not a data: URL, srcset, poster, action, ping...), no
 * element that frames, links or animates an attribute, and each link says that it is not
 * followed. The page then carries its own Content-Security-Policy (PREVIEW_CSP), and the frame
 * is sandboxed (HtmlPreview.tsx): either of those stops scripts and fetches on its own.
 */
import DOMPurify, { type Config } from 'dompurify';

export const PREVIEW_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; form-action 'none'; base-uri 'none'";

const LINK_NOTE = 'links are not followed in the preview';

const CONFIG: Config = {
  WHOLE_DOCUMENT: true,
  RETURN_DOM: true,
  // Only data: URLs may stay in a URL attribute (src of an image, a font in a style attribute...).
  ALLOWED_URI_REGEXP: /^data:/i,
  FORBID_TAGS: ['link', 'meta', 'base', 'iframe', 'frame', 'frameset', 'object', 'embed', 'portal', 'noscript', 'template', 'animate', 'animatemotion', 'animatetransform', 'set', 'discard'],
  FORBID_ATTR: ['href', 'xlink:href', 'action', 'formaction', 'srcset', 'imagesrcset', 'ping', 'poster', 'background', 'lowsrc', 'dynsrc', 'longdesc', 'manifest', 'codebase', 'archive', 'cite', 'usemap', 'itemtype', 'target'],
};

let purifier: ReturnType<typeof DOMPurify> | undefined;

/** A DOMPurify of the preview's own, so its hook never reaches another caller's. */
function preview(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier;
  purifier = DOMPurify(window);
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName.toLowerCase() !== 'a') return; // HTML's A and SVG's a
    const own = node.getAttribute('title');
    node.setAttribute('title', own ? `${own} (${LINK_NOTE})` : `${LINK_NOTE[0]!.toUpperCase()}${LINK_NOTE.slice(1)}`);
    node.setAttribute('aria-disabled', 'true');
  });
  return purifier;
}

/** The page as the preview frame gets it: a whole document, cleaned, with the preview's CSP first in its head. */
export function sanitizeHtml(html: string): string {
  const root = preview().sanitize(html, CONFIG) as unknown as HTMLElement;
  const doc = root.ownerDocument;
  const head = root.querySelector('head') ?? root.insertBefore(doc.createElement('head'), root.firstChild);
  const meta = doc.createElement('meta');
  meta.setAttribute('http-equiv', 'Content-Security-Policy');
  meta.setAttribute('content', PREVIEW_CSP);
  head.prepend(meta);
  return `<!doctype html>${root.outerHTML}`;
}
