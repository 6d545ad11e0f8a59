/**
 * A SoapUI project file (`*-soapui-project.xml`) read into plain data: its WSDL interfaces with
 * their carried definition parts and saved calls, project properties, environments, every
 * script, and counts of what Parley does not map. XML goes through the WSDL engine's safe reader
 * (no DTD, size and depth limits) with white space kept, so envelopes and scripts stay as written.
 */
import { ParleyError } from '../../../../protocol/errors.js';
import { DEFAULT_XML_LIMITS, childrenNamed, firstChild, parseXml, type XmlElement } from '../../../../protocol/wsdl/index.js';
import { SOAPUI_NS } from './detect.js';

export { SOAPUI_NS };

const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';

export interface SoapuiCall {
  name: string;
  endpoint: string;
  /** The envelope as written; undefined when its compressed copy would not decode (`undecodable` says why). */
  request?: string;
  undecodable?: string;
  username?: string;
  /** True when the call carried a non-empty password (never its value). */
  hadPassword: boolean;
  headers: { name: string; value: string }[];
}

export interface SoapuiOperation {
  name: string;
  action: string;
  calls: SoapuiCall[];
}

export interface SoapuiPart {
  url: string;
  content: string;
}

export interface SoapuiInterface {
  name: string;
  /** From `bindingName="{ns}local"`. */
  binding: { ns: string; local: string };
  soapVersion: '1.1' | '1.2';
  /** Where the WSDL was read from when SoapUI made the interface (its `definition`). */
  definition: string;
  /** The carried copy's entry (`definitionCache/@rootPart`), when any. */
  rootPart?: string;
  parts: SoapuiPart[];
  endpoints: string[];
  operations: SoapuiOperation[];
}

export interface SoapuiProperty {
  name: string;
  value: string;
}

export interface SoapuiScript {
  /** Where it sits: the names of the items around it and the element's name. */
  context: string[];
  text: string;
}

/** What Parley leaves out, each with how many there were. */
export interface NotMapped {
  testSuites: number;
  testCases: number;
  mockServices: number;
  restServices: number;
  otherInterfaces: string[];
  securityConfigurations: number;
  databaseConnections: number;
  authProfiles: number;
}

export interface SoapuiProject {
  name: string;
  version: string;
  interfaces: SoapuiInterface[];
  properties: SoapuiProperty[];
  environments: { name: string; properties: SoapuiProperty[] }[];
  scripts: SoapuiScript[];
  notMapped: NotMapped;
}

/** Element names that hold Groovy: `script`, `setupScript`, `afterLoadScript`... and a Groovy assertion's `scriptText`. */
const SCRIPT_NAME = /^(?:script|scriptText|[A-Za-z]*Script)$/;

/** Reads the project; refuses unsafe XML with the engine's `wsdl-*` codes and anything not a SoapUI project with `import-malformed`. */
export function readSoapuiProject(text: string, location: string, decode: (el: XmlElement) => { text: string } | { error: string }): SoapuiProject {
  const root = parseXml(text, location, DEFAULT_XML_LIMITS, { keepWhitespace: true });
  if (root.ns !== SOAPUI_NS || root.local !== 'soapui-project') {
    throw new ParleyError('import-malformed', `${location} is not a SoapUI project: its root element is ${root.local}, not soapui-project in ${SOAPUI_NS}.`);
  }
  if (firstChild(root, SOAPUI_NS, 'encryptedContent')) {
    throw new ParleyError('import-refused', `${location} is encrypted with a project password in SoapUI; remove the password in SoapUI (Project > Password) and save it again, then import the file.`);
  }
  const notMapped: NotMapped = { testSuites: 0, testCases: 0, mockServices: 0, restServices: 0, otherInterfaces: [], securityConfigurations: 0, databaseConnections: 0, authProfiles: 0 };
  const interfaces: SoapuiInterface[] = [];
  const environments: SoapuiProject['environments'] = [];
  for (const el of root.children) {
    if (el.ns !== SOAPUI_NS) continue;
    switch (el.local) {
      case 'interface': {
        const kind = interfaceKind(el);
        if (kind === 'wsdl') interfaces.push(readInterface(el, decode));
        else if (kind === 'rest') notMapped.restServices++;
        else notMapped.otherInterfaces.push(attr(el, 'name') || kind);
        break;
      }
      case 'testSuite':
        notMapped.testSuites++;
        notMapped.testCases += childrenNamed(el, SOAPUI_NS, 'testCase').length;
        break;
      case 'mockService':
      case 'restMockService':
        notMapped.mockServices++;
        break;
      case 'wssContainer':
        notMapped.securityConfigurations += el.children.filter((c) => c.ns === SOAPUI_NS && (c.children.length > 0 || c.attrs.size > 0)).length;
        break;
      case 'databaseConnectionContainer':
        notMapped.databaseConnections += el.children.filter((c) => c.ns === SOAPUI_NS).length;
        break;
      case 'oAuth2ProfileContainer':
      case 'oAuth1ProfileContainer':
      case 'authRepository':
        notMapped.authProfiles += el.children.filter((c) => c.ns === SOAPUI_NS).length;
        break;
      case 'environment':
        environments.push(readEnvironment(el));
        break;
      case 'environments':
      case 'environmentContainer':
        for (const env of childrenNamed(el, SOAPUI_NS, 'environment')) environments.push(readEnvironment(env));
        break;
      default:
        break;
    }
  }
  const scripts: SoapuiScript[] = [];
  collectScripts(root, [], scripts);
  return {
    name: attr(root, 'name').trim(),
    version: attr(root, 'soapui-version').trim(),
    interfaces,
    properties: readProperties(firstChild(root, SOAPUI_NS, 'properties')),
    environments,
    scripts,
    notMapped,
  };
}

function attr(el: XmlElement, name: string): string {
  return el.attrs.get(name) ?? '';
}

function childText(el: XmlElement, local: string): string | undefined {
  const child = firstChild(el, SOAPUI_NS, local);
  return child === undefined ? undefined : child.text;
}

/** 'wsdl', 'rest' or what the file names: newer files say `type`, older ones only `xsi:type` or nothing (then a binding name means WSDL). */
function interfaceKind(el: XmlElement): string {
  const type = attr(el, 'type').trim();
  if (type) return type;
  for (const [name, value] of el.attrs) {
    if (name.endsWith(':type') && el.scope.get(name.slice(0, name.indexOf(':'))) === XSI_NS) {
      const local = value.slice(value.indexOf(':') + 1);
      if (local === 'WsdlInterface') return 'wsdl';
      if (local === 'RestService') return 'rest';
      return local;
    }
  }
  return el.attrs.has('bindingName') ? 'wsdl' : 'unknown';
}

function readInterface(el: XmlElement, decode: (el: XmlElement) => { text: string } | { error: string }): SoapuiInterface {
  const bindingName = attr(el, 'bindingName').trim();
  const qname = /^\{([^}]*)\}(.*)$/.exec(bindingName);
  const cache = firstChild(el, SOAPUI_NS, 'definitionCache');
  const parts: SoapuiPart[] = [];
  for (const part of cache ? childrenNamed(cache, SOAPUI_NS, 'part') : []) {
    const url = childText(part, 'url')?.trim();
    const contentEl = firstChild(part, SOAPUI_NS, 'content');
    if (!url || !contentEl) continue;
    const content = decode(contentEl);
    if ('text' in content) parts.push({ url, content: content.text });
  }
  const endpoints = (childrenNamed(el, SOAPUI_NS, 'endpoints')[0]?.children ?? []).filter((c) => c.ns === SOAPUI_NS && c.local === 'endpoint').map((c) => c.text.trim()).filter(Boolean);
  const operations = childrenNamed(el, SOAPUI_NS, 'operation').map((op) => ({
    name: attr(op, 'name'),
    action: attr(op, 'action'),
    calls: childrenNamed(op, SOAPUI_NS, 'call').map((call) => readCall(call, decode)),
  }));
  const rootPart = cache?.attrs.get('rootPart')?.trim();
  return {
    name: attr(el, 'name') || (qname?.[2] ?? 'SOAP interface'),
    binding: qname ? { ns: qname[1]!, local: qname[2]! } : { ns: '', local: attr(el, 'name') },
    soapVersion: attr(el, 'soapVersion').trim() === '1_2' ? '1.2' : '1.1',
    definition: attr(el, 'definition').trim(),
    ...(rootPart ? { rootPart } : {}),
    parts,
    endpoints,
    operations,
  };
}

function readCall(el: XmlElement, decode: (el: XmlElement) => { text: string } | { error: string }): SoapuiCall {
  const credentials = firstChild(el, SOAPUI_NS, 'credentials');
  const username = credentials ? childText(credentials, 'username')?.trim() : undefined;
  const password = credentials ? childText(credentials, 'password') : undefined;
  const requestEl = firstChild(el, SOAPUI_NS, 'request');
  const call: SoapuiCall = {
    name: attr(el, 'name') || 'Request',
    endpoint: childText(el, 'endpoint')?.trim() ?? '',
    hadPassword: password !== undefined && password !== '',
    headers: requestHeaders(el),
  };
  if (username) call.username = username;
  if (requestEl) {
    const decoded = decode(requestEl);
    if ('text' in decoded) call.request = decoded.text;
    else call.undecodable = decoded.error;
  } else {
    call.request = '';
  }
  return call;
}

/**
 * A call's own headers: SoapUI keeps them as an escaped XML fragment in the setting
 * `...@request-headers` (`<con:entry key="X" value="Y"/>`), read with the same safe reader.
 */
function requestHeaders(call: XmlElement): { name: string; value: string }[] {
  const settings = firstChild(call, SOAPUI_NS, 'settings');
  const setting = settings ? childrenNamed(settings, SOAPUI_NS, 'setting').find((s) => attr(s, 'id').endsWith('@request-headers')) : undefined;
  const fragment = setting?.text.trim();
  if (!fragment) return [];
  let root: XmlElement;
  try {
    root = parseXml(fragment, 'request headers', { ...DEFAULT_XML_LIMITS, maxChars: 256 * 1024, maxDepth: 8 });
  } catch {
    return [];
  }
  return root.children.filter((c) => c.local === 'entry' && attr(c, 'key') !== '').map((c) => ({ name: attr(c, 'key'), value: attr(c, 'value') }));
}

function readProperties(el: XmlElement | undefined): SoapuiProperty[] {
  if (!el) return [];
  return childrenNamed(el, SOAPUI_NS, 'property')
    .map((p) => ({ name: (childText(p, 'name') ?? '').trim(), value: childText(p, 'value') ?? '' }))
    .filter((p) => p.name !== '');
}

function readEnvironment(el: XmlElement): { name: string; properties: SoapuiProperty[] } {
  const direct = childrenNamed(el, SOAPUI_NS, 'property').length > 0 ? el : firstChild(el, SOAPUI_NS, 'properties');
  return { name: attr(el, 'name').trim() || 'SoapUI environment', properties: readProperties(direct) };
}

/** Every script in the file, with the names of the items it belongs to. */
function collectScripts(el: XmlElement, context: string[], out: SoapuiScript[]): void {
  for (const child of el.children) {
    if (SCRIPT_NAME.test(child.local) && child.children.length === 0) {
      if (child.text.trim() !== '') out.push({ context: [...context, child.local], text: child.text });
      continue;
    }
    // A mock operation dispatched by script keeps its Groovy in dispatchPath.
    if (child.local === 'dispatchPath' && (childText(el, 'dispatchStyle') ?? '').trim() === 'SCRIPT' && child.text.trim() !== '') {
      out.push({ context: [...context, 'dispatch'], text: child.text });
      continue;
    }
    const name = child.attrs.get('name');
    collectScripts(child, name ? [...context, name] : context, out);
  }
}
