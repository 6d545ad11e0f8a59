/** Security schemes of every generation read into one shape (OpenAPI 3.x, Swagger 2.0, 1.x). */
import { joinPointer } from '../../../../../protocol/json-pointer.js';
import type { DocumentSet } from '../../load/document-set.js';
import type { NSecurityScheme, Part } from './model.js';
import { arr, isObj, obj, str, type Obj } from './values.js';

/** OpenAPI 3.x `components.securitySchemes`. */
export function readSchemes3(set: DocumentSet, map: Part): NSecurityScheme[] {
  const out: NSecurityScheme[] = [];
  for (const [name, raw] of Object.entries(obj(map.node) ?? {})) {
    const resolved = set.deref(map.docUrl, joinPointer(map.pointer, name), raw);
    if (!resolved || !isObj(resolved.value)) continue;
    const s = resolved.value;
    const loc: Part = { docUrl: resolved.doc.url, pointer: resolved.pointer, node: s };
    const type = str(s['type']) ?? '';
    const scheme: NSecurityScheme = { name, type, loc };
    if (type === 'http') {
      scheme.httpScheme = (str(s['scheme']) ?? '').toLowerCase();
      const format = str(s['bearerFormat']);
      if (format !== undefined) scheme.bearerFormat = format;
    } else if (type === 'apiKey') {
      scheme.apiKey = { name: str(s['name']) ?? '', in: str(s['in']) ?? '' };
    } else if (type === 'oauth2') {
      const flows = obj(s['flows']) ?? {};
      scheme.oauth2 = {
        flows: Object.entries(flows)
          .filter(([, f]) => isObj(f))
          .map(([flow, f]) => flowOf(flow, f as Obj)),
      };
    } else if (type === 'openIdConnect') {
      scheme.openIdConnectUrl = str(s['openIdConnectUrl']) ?? '';
    }
    out.push(scheme);
  }
  return out;
}

/** 2.0's flow names that 3.x renamed (a Map: the name is the document's). */
const FLOWS_2 = new Map([
  ['accessCode', 'authorizationCode'],
  ['application', 'clientCredentials'],
]);

/** Swagger 2.0 `securityDefinitions`. */
export function readSchemes2(map: Part): NSecurityScheme[] {
  return readSchemeMap(map, (scheme, raw) => {
    if (scheme.type === 'apiKey') scheme.apiKey = { name: str(raw['name']) ?? '', in: str(raw['in']) ?? '' };
    if (scheme.type === 'oauth2') {
      // 2.0 names the flows accessCode and application; keep the 3.x names.
      const given = str(raw['flow']) ?? '';
      const flow = FLOWS_2.get(given) ?? given;
      scheme.oauth2 = { flows: [flowOf(flow, raw)] };
    }
  });
}

/** Swagger 1.x `authorizations` of a resource listing. */
export function readSchemes1(map: Part): NSecurityScheme[] {
  return readSchemeMap(map, (scheme, raw) => {
    if (scheme.type === 'apiKey') scheme.apiKey = { name: str(raw['keyname']) ?? '', in: str(raw['passAs']) ?? '' };
    if (scheme.type === 'oauth2') {
      const grants = obj(raw['grantTypes']) ?? {};
      const scopes = arr(raw['scopes'])
        .map((s) => (isObj(s) ? str(s['scope']) : undefined))
        .filter((s): s is string => s !== undefined);
      const flows: { flow: string; authorizationUrl: string; tokenUrl: string; scopes: string[] }[] = [];
      const code = obj(grants['authorization_code']);
      if (code) {
        flows.push({
          flow: 'authorizationCode',
          authorizationUrl: str(obj(code['tokenRequestEndpoint'])?.['url']) ?? '',
          tokenUrl: str(obj(code['tokenEndpoint'])?.['url']) ?? '',
          scopes,
        });
      }
      const implicit = obj(grants['implicit']);
      if (implicit) flows.push({ flow: 'implicit', authorizationUrl: str(obj(implicit['loginEndpoint'])?.['url']) ?? '', tokenUrl: '', scopes });
      scheme.oauth2 = { flows };
    }
  });
}

/** Each entry of a 2.0 / 1.x scheme map (never a `$ref` there) with its name, type and place; `fill` adds the details. */
function readSchemeMap(map: Part, fill: (scheme: NSecurityScheme, raw: Obj) => void): NSecurityScheme[] {
  const out: NSecurityScheme[] = [];
  for (const [name, raw] of Object.entries(obj(map.node) ?? {})) {
    if (!isObj(raw)) continue;
    const scheme: NSecurityScheme = { name, type: str(raw['type']) ?? '', loc: { docUrl: map.docUrl, pointer: joinPointer(map.pointer, name), node: raw } };
    fill(scheme, raw);
    out.push(scheme);
  }
  return out;
}

function flowOf(flow: string, f: Obj): { flow: string; authorizationUrl: string; tokenUrl: string; scopes: string[] } {
  return {
    flow,
    authorizationUrl: str(f['authorizationUrl']) ?? '',
    tokenUrl: str(f['tokenUrl']) ?? '',
    scopes: Object.keys(obj(f['scopes']) ?? {}),
  };
}
