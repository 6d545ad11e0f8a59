/**
 * The XSD component tables a WSDL's samples need: global elements, types, groups, attribute
 * groups and attributes, each with the schema it came from (target namespace, element and
 * attribute form defaults). Keys are `{ns}local` strings in Maps, never object keys.
 */
import { type QName, type XmlElement, qkey } from './xml.js';

export const XSD_NS = 'http://www.w3.org/2001/XMLSchema';
/** Older schema namespaces some WSDLs still use; read like the 2001 one. */
export const XSD_NAMESPACES: readonly string[] = [XSD_NS, 'http://www.w3.org/2000/10/XMLSchema', 'http://www.w3.org/1999/XMLSchema'];

export interface SchemaInfo {
  targetNamespace: string;
  elementQualified: boolean;
  attributeQualified: boolean;
  location: string;
}

export interface SchemaComponent {
  el: XmlElement;
  schema: SchemaInfo;
}

export class SchemaSet {
  readonly elements = new Map<string, SchemaComponent>();
  readonly types = new Map<string, SchemaComponent>();
  readonly groups = new Map<string, SchemaComponent>();
  readonly attributeGroups = new Map<string, SchemaComponent>();
  readonly attributes = new Map<string, SchemaComponent>();

  /** Adds the top-level components of one xsd:schema element (its imports and includes are the loader's). */
  addSchema(schemaEl: XmlElement, location: string, namespaceOverride?: string): SchemaInfo {
    const info: SchemaInfo = {
      targetNamespace: namespaceOverride ?? schemaEl.attrs.get('targetNamespace') ?? '',
      elementQualified: schemaEl.attrs.get('elementFormDefault') === 'qualified',
      attributeQualified: schemaEl.attrs.get('attributeFormDefault') === 'qualified',
      location,
    };
    this.addComponents(schemaEl, info);
    return info;
  }

  private addComponents(parent: XmlElement, info: SchemaInfo): void {
    for (const child of parent.children) {
      if (!XSD_NAMESPACES.includes(child.ns)) continue;
      if (child.local === 'redefine') {
        // A redefine's own components replace the included ones; the loader adds the included document first.
        this.addComponents(child, info);
        continue;
      }
      const name = child.attrs.get('name');
      if (!name) continue;
      const key = qkey({ ns: info.targetNamespace, local: name });
      const table = this.tableFor(child.local);
      // The first declaration wins, except inside a redefine (added after the document it redefines).
      if (table && (!table.has(key) || parent.local === 'redefine')) table.set(key, { el: child, schema: info });
    }
  }

  private tableFor(kind: string): Map<string, SchemaComponent> | undefined {
    switch (kind) {
      case 'element':
        return this.elements;
      case 'complexType':
      case 'simpleType':
        return this.types;
      case 'group':
        return this.groups;
      case 'attributeGroup':
        return this.attributeGroups;
      case 'attribute':
        return this.attributes;
      default:
        return undefined;
    }
  }

  element(q: QName): SchemaComponent | undefined {
    return this.elements.get(qkey(q));
  }

  type(q: QName): SchemaComponent | undefined {
    return this.types.get(qkey(q));
  }
}
