/**
 * The operations a GraphQL document defines, read by graphql-js (docs/graphql.md): the editor
 * lists them to choose from, and a send goes over HTTP or, for a subscription, over graphql-ws.
 */
import { parse, type OperationDefinitionNode } from 'graphql';

export interface GraphqlOperationInfo {
  /** '' for an anonymous operation. */
  name: string;
  type: OperationDefinitionNode['operation'];
}

/** Tokens a document is read up to here; a longer one is sent as it is and the server says what it makes of it. */
const MAX_TOKENS = 200_000;

/** The operations a document defines (none when it does not parse: the editor marks why, the server answers it). */
export function operationsOf(query: string): GraphqlOperationInfo[] {
  try {
    return parse(query, { noLocation: true, maxTokens: MAX_TOKENS })
      .definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition')
      .map((d) => ({ name: d.name?.value ?? '', type: d.operation }));
  } catch {
    return [];
  }
}

/** The operation a send runs: the one named `operationName`, or the document's only one. */
export function chosenOperation(query: string, operationName: string): GraphqlOperationInfo | undefined {
  const operations = operationsOf(query);
  return operationName === '' ? (operations.length === 1 ? operations[0] : undefined) : operations.find((op) => op.name === operationName);
}
