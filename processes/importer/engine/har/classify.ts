/**
 * Which recorded exchanges SPEC "HAR grouping" skips: entries whose URL is not http: or https:,
 * CORS preflights, and static assets unless Include static assets is ticked. What counts as a
 * static asset is our choice where SPEC is silent (docs/importers.md, "HAR"): a GET or HEAD
 * whose recorded resource type, response type or file extension says image, script, style,
 * font, media, manifest or source map. Pages (HTML documents) and API calls are requests.
 */
import { essence } from '../../../../protocol/media-type.js';
import { headerValue, type HarExchange } from './entry.js';

export type SkipReason = 'not-http' | 'preflight' | 'static';

const STATIC_RESOURCE_TYPES = new Set(['stylesheet', 'script', 'image', 'font', 'media', 'manifest', 'texttrack', 'imageset', 'img', 'css']);
const STATIC_TYPES = new Set([
  'text/css',
  'application/javascript',
  'text/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'text/ecmascript',
  'application/wasm',
  'application/manifest+json',
  'application/font-woff',
  'application/font-woff2',
  'application/x-font-woff',
  'application/x-font-ttf',
  'application/x-font-otf',
  'application/vnd.ms-fontobject',
]);
const STATIC_PREFIXES = ['image/', 'font/', 'audio/', 'video/'];
/** A path's last extension (lower case) that says static asset. A parsed URL's path is ASCII (the rest is percent-encoded). */
const STATIC_EXTENSIONS = new Set(['css', 'js', 'mjs', 'map', 'png', 'jpg', 'jpeg', 'gif', 'svg', 'ico', 'webp', 'avif', 'bmp', 'tif', 'tiff', 'woff', 'woff2', 'ttf', 'otf', 'eot', 'mp4', 'webm', 'ogg', 'mp3', 'wav', 'm4a', 'webmanifest']);

/** Why an exchange is not imported, or null when it becomes (part of) a request. */
export function skipReason(exchange: HarExchange, url: URL | null, includeStaticAssets: boolean): SkipReason | null {
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return 'not-http';
  const { request } = exchange;
  if (request.method === 'OPTIONS' && headerValue(request.headers, 'access-control-request-method') !== undefined) return 'preflight';
  if (!includeStaticAssets && isStaticAsset(exchange, url)) return 'static';
  return null;
}

export function isStaticAsset(exchange: HarExchange, url: URL): boolean {
  if (exchange.request.method !== 'GET' && exchange.request.method !== 'HEAD') return false;
  if (exchange.resourceType !== undefined && STATIC_RESOURCE_TYPES.has(exchange.resourceType.toLowerCase())) return true;
  const response = exchange.response;
  const type = response ? essence(headerValue(response.headers, 'content-type') ?? response.content.mimeType ?? '') : '';
  if (type !== '' && (STATIC_TYPES.has(type) || STATIC_PREFIXES.some((p) => type.startsWith(p)))) return true;
  const path = url.pathname;
  const dot = path.lastIndexOf('.');
  return dot >= 0 && STATIC_EXTENSIONS.has(path.slice(dot + 1).toLowerCase());
}

/** The URL of an exchange, or null when it is not one. */
export function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}
