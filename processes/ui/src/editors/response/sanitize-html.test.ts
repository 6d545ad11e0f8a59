/**
 * The HTML preview's cleaner in a real browser (Debian's Chromium): mutation XSS lives in the
 * difference between how a browser parses markup and how it parses the same markup serialized
 * again, so the cleaner's output is parsed once more here as the preview frame parses it, and
 * nothing in that document may run, navigate or fetch. The vectors are the published bypasses of
 * earlier sanitizers (DOMPurify's own among them) and the one issue 26 found in Parley's.
 */
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { chromiumMissing, launchBrowser } from '../../../../../test/support/browser.js';

const missing = chromiumMissing();

/** The classic mXSS and filter-bypass vectors, each with a link and an event handler to come back live if it can. */
const VECTORS: Record<string, string> = {
  // Issue 26: MathML mglyph foster-parented out of a table, a style whose content is markup in one parse and text in the next.
  'math mtext table mglyph style (issue 26)': `<math><mtext><table><mglyph><style><img src=x onerror="fetch('/1')"><a href="http://127.0.0.1:9/out" id="x">link</a></style></mglyph></table></mtext></math>`,
  // DOMPurify 2.0.17 (Michał Bentkowski): a comment in a MathML style closed inside an attribute.
  'math mglyph style comment (DOMPurify 2.0.17)': `<math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;/mglyph&gt;&lt;img&Tab;src=1&Tab;onerror=alert(1)&gt;">`,
  // DOMPurify 2.0.0 (Michał Bentkowski): nested forms leave mglyph in MathML.
  'form math mglyph (DOMPurify 2.0.0)': `<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>`,
  // DOMPurify 2.0.0 (Masato Kinugawa): an SVG style whose text becomes markup once re-parsed.
  'svg p style (DOMPurify 2.0.0)': `<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">`,
  // DOMPurify 2.2.2 family: MathML annotation-xml and SVG foreignObject as integration points.
  'svg foreignobject style': `<svg><foreignobject><p><style><p title="</style><iframe onload&#x3d;alert(1)<!--"></style>`,
  'math annotation-xml encoding': `<math><annotation-xml encoding="text/html"><style><img src=x onerror=alert(1)></style></annotation-xml></math>`,
  'noscript title': `<noscript><p title="</noscript><img src=x onerror=alert(1)>">`,
  'template img': `<template><img src=x onerror=alert(1)></template><img src=x onerror=alert(2)>`,
  'xlink href in math': `<math><mi xlink:href="data:x,<script>alert(4)</script>">x</mi></math>`,
  'svg a xlink:href javascript': `<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">X</text></a></svg>`,
  'svg animate sets href': `<svg><a><animate attributeName="href" values="javascript:alert(1)"/><text x="20" y="20">X</text></a></svg>`,
  'svg use external': `<svg><use href="http://127.0.0.1:9/sprite.svg#x"/></svg>`,
  'javascript link, entity-encoded': `<a href="jav&#x09;ascript:alert(1)">x</a><a href="&#106;avascript:alert(1)">y</a>`,
  'meta refresh and base in body': `<p>x</p><meta http-equiv="refresh" content="0;url=http://127.0.0.1:9/"><base href="http://127.0.0.1:9/">`,
  'form with formaction': `<form><button formaction="http://127.0.0.1:9/">go</button><input type="image" src="http://127.0.0.1:9/i.png"></form>`,
  'srcset and poster': `<img srcset="http://127.0.0.1:9/a.png 2x"><video poster="http://127.0.0.1:9/p.png"></video>`,
  'iframe srcdoc': `<iframe srcdoc="<script>alert(1)</script>"></iframe>`,
  'object and embed': `<object data="http://127.0.0.1:9/o"></object><embed src="http://127.0.0.1:9/e">`,
  'style attribute expression': `<p style="background:url(http://127.0.0.1:9/bg.png)">kept, stopped by the CSP</p>`,
};

/** Elements that run, frame, navigate or fetch, wherever they stand. */
const FORBIDDEN_ELEMENTS = ['script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'portal', 'link', 'base', 'animate', 'set', 'animatemotion', 'animatetransform', 'noscript'];
/** Attributes that navigate or fetch (besides `src`, allowed only as a data: URL). */
const FORBIDDEN_ATTRIBUTES = ['href', 'xlink:href', 'action', 'formaction', 'srcset', 'imagesrcset', 'ping', 'poster', 'background', 'data', 'srcdoc', 'lowsrc', 'dynsrc', 'longdesc', 'manifest', 'codebase', 'archive'];

describe.skipIf(missing !== null)('the HTML preview cleaner', () => {
  let browser: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    const bundle = await build({ entryPoints: [new URL('./sanitize-html.ts', import.meta.url).pathname], bundle: true, write: false, format: 'iife', globalName: 'parleyPreview', platform: 'browser', target: 'es2022', logLevel: 'silent' });
    browser = await launchBrowser();
    page = await browser.newPage();
    await page.setContent('<!doctype html><html><head></head><body></body></html>');
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
  }, 60_000);
  afterAll(() => browser?.close());

  /** What is live in the cleaned markup once the frame parses it: every element, attribute and URL that could run, navigate or fetch. */
  async function liveIn(html: string): Promise<{ live: string[]; cleaned: string }> {
    return page.evaluate(
      ({ html, elements, attributes }) => {
        const cleaned = (window as unknown as { parleyPreview: { sanitizeHtml(h: string): string } }).parleyPreview.sanitizeHtml(html);
        const doc = new DOMParser().parseFromString(cleaned, 'text/html');
        const live: string[] = [];
        const metas = [...doc.querySelectorAll('meta')];
        if (metas.length !== 1 || metas[0]!.getAttribute('http-equiv') !== 'Content-Security-Policy' || doc.head.firstElementChild !== metas[0]) live.push(`meta: ${metas.map((m) => m.outerHTML).join(' ')}`);
        for (const el of doc.querySelectorAll('*')) {
          const tag = el.localName.toLowerCase();
          if (elements.includes(tag)) live.push(`<${tag}>`);
          for (const attr of el.attributes) {
            const name = attr.name.toLowerCase();
            if (name.startsWith('on') || attributes.includes(name) || name.endsWith(':href')) live.push(`<${tag} ${name}="${attr.value}">`);
            if (name === 'src' && !/^data:/i.test(attr.value.trim())) live.push(`<${tag} src="${attr.value}">`);
          }
        }
        return { live, cleaned };
      },
      { html, elements: FORBIDDEN_ELEMENTS, attributes: FORBIDDEN_ATTRIBUTES },
    );
  }

  for (const [name, vector] of Object.entries(VECTORS)) {
    it(`${name}: nothing comes back live when the cleaned page is parsed again`, async () => {
      const { live, cleaned } = await liveIn(vector);
      expect(live, cleaned).toEqual([]);
      // Cleaned twice, it is the same: nothing is left for a second parse to turn into markup.
      await expect(liveIn(cleaned)).resolves.toMatchObject({ live: [] });
    });
  }

  it('keeps what a page shows: text, inline styles, a style sheet, data: images, a title; links are marked as not followed', async () => {
    const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGP4z8DAwMDAxAAAGPcDAfKTH/EAAAAASUVORK5CYII=';
    const { live, cleaned } = await liveIn(`<!doctype html><html><head><title>Shop</title><style>h1 { color: red }</style></head><body><h1 style="font-style: italic">Hello</h1><img alt="dot" src="${png}"><a href="https://example.com/" title="Home">Home</a><table><tr><td>cell</td></tr></table></body></html>`);
    expect(live).toEqual([]);
    const doc = await page.evaluate((html) => {
      const d = new DOMParser().parseFromString(html, 'text/html');
      const a = d.querySelector('a')!;
      return { title: d.title, style: d.querySelector('style')?.textContent, h1: d.querySelector('h1')?.getAttribute('style'), img: d.querySelector('img')?.getAttribute('src'), cell: d.querySelector('td')?.textContent, link: { text: a.textContent, title: a.getAttribute('title'), disabled: a.getAttribute('aria-disabled') } };
    }, cleaned);
    expect(doc).toEqual({ title: 'Shop', style: 'h1 { color: red }', h1: 'font-style: italic', img: png, cell: 'cell', link: { text: 'Home', title: 'Home (links are not followed in the preview)', disabled: 'true' } });
  });
});
