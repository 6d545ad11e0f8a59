/**
 * WCAG 2.x contrast of what Chromium paints: an element's computed text colour against its
 * computed background (walking up to the first opaque one, each translucent layer composited over
 * the one below, and the element's opacity applied), as the relative luminance formula of WCAG 2.2
 * ("relative luminance", "contrast ratio") defines them.
 */
import type { Locator } from 'playwright-core';

export interface Painted {
  /** sRGB 0..1 and alpha, as computed. */
  color: [number, number, number, number];
  background: [number, number, number];
  ratio: number;
}

/** The text colour and the background it sits on, as Chromium computes them now. */
export async function paintedContrast(el: Locator): Promise<Painted> {
  const { color, layers, opacity } = await el.evaluate((node) => {
    const layers: string[] = [];
    let opacity = 1;
    for (let at: Element | null = node; at; at = at.parentElement) {
      const style = getComputedStyle(at);
      layers.push(style.backgroundColor);
      opacity *= Number(style.opacity);
    }
    layers.push('rgb(255, 255, 255)'); // the canvas under everything
    return { color: getComputedStyle(node).color, layers, opacity };
  });
  // Composite from the canvas up to the element's own background.
  let background: [number, number, number] = [1, 1, 1];
  for (const layer of layers.reverse()) {
    const [r, g, b, a] = parseCssColor(layer);
    background = [r * a + background[0] * (1 - a), g * a + background[1] * (1 - a), b * a + background[2] * (1 - a)];
  }
  const fg = parseCssColor(color);
  // Text drawn with alpha (or under opacity) is seen blended over the background.
  const a = fg[3] * opacity;
  const seen: [number, number, number] = [fg[0] * a + background[0] * (1 - a), fg[1] * a + background[1] * (1 - a), fg[2] * a + background[2] * (1 - a)];
  return { color: fg, background, ratio: contrastRatio(seen, background) };
}

/** `rgb(…)`, `rgba(…)` or `color(srgb …)` (what color-mix computes to) as sRGB 0..1 and alpha. */
export function parseCssColor(text: string): [number, number, number, number] {
  const srgb = /^color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)(?: \/ ([\d.e-]+))?\)$/.exec(text);
  if (srgb) return [Number(srgb[1]), Number(srgb[2]), Number(srgb[3]), srgb[4] === undefined ? 1 : Number(srgb[4])];
  const rgb = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/.exec(text);
  if (rgb) return [Number(rgb[1]) / 255, Number(rgb[2]) / 255, Number(rgb[3]) / 255, rgb[4] === undefined ? 1 : Number(rgb[4])];
  throw new Error(`a colour this test cannot read: ${text}`);
}

export function relativeLuminance([r, g, b]: readonly number[]): number {
  const linear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r!) + 0.7152 * linear(g!) + 0.0722 * linear(b!);
}

export function contrastRatio(a: readonly number[], b: readonly number[]): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
