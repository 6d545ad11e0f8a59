/**
 * The gRPC message editor's help from its input type's schema (protocol/grpc/message-check.ts):
 * marks on the values that do not fit (found by their JSON path in the text's syntax tree), and
 * completion of a message's field names and an enum's values where the caret is.
 */
import type { CompletionContext, CompletionResult, CompletionSource } from '@codemirror/autocomplete';
import { syntaxTree } from '@codemirror/language';
import { parser } from '@lezer/json';
import type { SyntaxNode, Tree } from '@lezer/common';
import { checkMessageValue, fieldOf, pathText, resolveNode, type JsonPath, type MessageSchema, type SchemaNode } from '../../../../../protocol/grpc/message-check.js';
import type { CodeMark } from '../../code/CodeEditor.js';

/** The schema's issues with `text` as marks on the values they are about; text that is not JSON has none (the parse mark says why). */
export function schemaMarks(schema: MessageSchema | undefined, text: string): CodeMark[] {
  if (!schema || text.trim() === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const issues = checkMessageValue(schema, value);
  if (issues.length === 0) return [];
  const tree = parser.parse(text);
  return issues.map((issue) => {
    const at = locate(tree, text, issue.path);
    return { severity: 'error', message: `${pathText(issue.path)}: ${issue.message}`, from: at.from, to: at.to };
  });
}

/** Where the value at `path` is written (the property's name for an object's key), or the whole text. */
function locate(tree: Tree, text: string, path: JsonPath): { from: number; to: number } {
  let node: SyntaxNode | null = tree.topNode.firstChild;
  let name: SyntaxNode | null = null;
  for (const step of path) {
    if (!node) break;
    if (typeof step === 'number' && node.name === 'Array') {
      const items = valuesOf(node);
      node = items[step] ?? null;
      name = null;
    } else if (typeof step === 'string' && node.name === 'Object') {
      const property = node.getChildren('Property').find((p) => {
        const key = p.getChild('PropertyName');
        return key !== null && unquote(text.slice(key.from, key.to)) === step;
      });
      name = property?.getChild('PropertyName') ?? null;
      node = property ? (property.lastChild ?? null) : null;
    } else node = null;
  }
  const target = node ?? name;
  return target ? { from: target.from, to: target.to } : { from: 0, to: Math.min(text.length, 1) };
}

function valuesOf(array: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let child = array.firstChild; child; child = child.nextSibling) if (!['[', ']', ','].includes(child.name) && !child.type.isError) out.push(child);
  return out;
}

function unquote(text: string): string {
  try {
    return JSON.parse(text) as string;
  } catch {
    return text.replace(/^"|"$/g, '');
  }
}

/** The JSON path of the object or array `node` is in, from the top (keys by their names). */
function pathOf(node: SyntaxNode, doc: string): JsonPath {
  const path: JsonPath = [];
  let at: SyntaxNode | null = node;
  while (at && at.parent) {
    const parent: SyntaxNode = at.parent;
    if (parent.name === 'Property' && at !== parent.firstChild) {
      const key = parent.getChild('PropertyName');
      if (key) path.unshift(unquote(doc.slice(key.from, key.to)));
    } else if (parent.name === 'Array') {
      path.unshift(valuesOf(parent).findIndex((v) => v.from === at!.from));
    }
    at = parent;
  }
  return path;
}

function nodeAt(schema: MessageSchema, path: JsonPath): SchemaNode | undefined {
  let node = resolveNode(schema, { $ref: schema.$ref });
  for (const step of path) {
    if (!node) return undefined;
    if (typeof step === 'number') node = resolveNode(schema, node.items);
    else if (node.properties) node = resolveNode(schema, fieldOf(node, step)?.node);
    else node = typeof node.additionalProperties === 'object' ? resolveNode(schema, node.additionalProperties) : undefined;
  }
  return node;
}

function typeLabel(node: SchemaNode | undefined): string {
  if (!node) return '';
  if (node.$ref) return node.$ref.replace('#/$defs/', '');
  if (node.type === 'array') return `repeated ${typeLabel(node.items)}`;
  if (node.enum) return node.title ?? 'enum';
  if (node.title) return node.title;
  return node.format ?? (Array.isArray(node.type) ? node.type.join('|') : (node.type ?? ''));
}

/** Completes a message's field names (those not written yet) and an enum field's values, from `schema()`. */
export function messageCompletion(schema: () => MessageSchema | undefined): CompletionSource {
  return (context: CompletionContext): CompletionResult | null => {
    const s = schema();
    if (!s) return null;
    const tree = syntaxTree(context.state);
    const doc = context.state.doc.toString();
    const node: SyntaxNode = tree.resolveInner(context.pos, -1);
    // A property's name being written, or a place for one in an object.
    const word = context.matchBefore(/"?[A-Za-z0-9_]*"?$/);
    if (node.name === 'PropertyName' || node.name === 'Object' || (node.type.isError && node.parent?.name === 'Object')) {
      const object = node.name === 'Object' ? node : node.name === 'PropertyName' ? node.parent!.parent! : node.parent!;
      const target = nodeAt(s, pathOf(object, doc));
      if (!target?.properties) return null;
      const written = new Set(object.getChildren('Property').map((p) => unquote(doc.slice(p.getChild('PropertyName')?.from ?? 0, p.getChild('PropertyName')?.to ?? 0))));
      const options = Object.entries(target.properties)
        .filter(([name]) => !written.has(name) || (node.name === "PropertyName" && unquote(doc.slice(node.from, node.to)) === name))
        .map(([name, field]) => ({ label: name, detail: typeLabel(field), info: field.description, apply: `"${name}": `, type: 'property' }));
      const from = node.name === 'PropertyName' ? node.from : (word?.from ?? context.pos);
      if (!context.explicit && from === context.pos && node.name !== 'PropertyName') return null;
      return { from, to: node.name === 'PropertyName' ? node.to : context.pos, options, filter: true };
    }
    // An enum's value being written.
    if (node.name === 'String' && node.parent?.name === 'Property') {
      const key = node.parent.getChild('PropertyName');
      const object = node.parent.parent!;
      const target = nodeAt(s, [...pathOf(object, doc), unquote(doc.slice(key?.from ?? 0, key?.to ?? 0))]);
      if (!target?.enum) return null;
      return { from: node.from, to: node.to, options: target.enum.map((v) => ({ label: JSON.stringify(v), type: 'enum' })) };
    }
    return null;
  };
}
