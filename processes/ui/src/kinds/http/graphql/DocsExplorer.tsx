/**
 * The schema's docs (docs/graphql.md): the root operation types, then any type by name (searched,
 * the first MATCHES shown of a schema of thousands), each with its description, fields and their
 * arguments; a type named in a field or argument opens it.
 */
import { useSignal } from '@preact/signals';
import { getNamedType, type GraphQLArgument, type GraphQLType, isEnumType, isInputObjectType, isInterfaceType, isObjectType, isUnionType, type GraphQLNamedType, type GraphQLSchema } from 'graphql';
import type { SchemaState } from './schema-state.js';

const MATCHES = 100;

export function DocsExplorer({ state }: { state: SchemaState }) {
  const schema = state.schema.value;
  const search = useSignal('');
  if (!schema) return <aside class="graphql-docs muted" aria-label="GraphQL docs">No schema: introspect the endpoint or name a schema file.</aside>;
  const at = state.docsAt.value;
  const type = at === null ? undefined : schema.getType(at);
  return (
    <aside class="graphql-docs" aria-label="GraphQL docs">
      <div class="graphql-docs-head">
        {type && (
          <button class="link-button" onClick={() => (state.docsAt.value = null)}>
            ‹ Schema
          </button>
        )}
        <input aria-label="Search types" placeholder="Search types" value={search.value} onInput={(e) => (search.value = (e.target as HTMLInputElement).value)} />
      </div>
      {search.value.trim() !== '' ? <TypeSearch schema={schema} text={search.value.trim()} open={(name) => ((state.docsAt.value = name), (search.value = ''))} /> : type ? <TypeDocs type={type} open={(name) => (state.docsAt.value = name)} /> : <RootTypes schema={schema} open={(name) => (state.docsAt.value = name)} />}
    </aside>
  );
}

function RootTypes({ schema, open }: { schema: GraphQLSchema; open: (name: string) => void }) {
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter((t) => t != null);
  return (
    <ul class="graphql-docs-list">
      {roots.map((t) => (
        <li key={t.name}>
          <button class="link-button" onClick={() => open(t.name)}>
            {t.name}
          </button>
        </li>
      ))}
    </ul>
  );
}

function TypeSearch({ schema, text, open }: { schema: GraphQLSchema; text: string; open: (name: string) => void }) {
  const lower = text.toLowerCase();
  const names = Object.keys(schema.getTypeMap()).filter((name) => !name.startsWith('__') && name.toLowerCase().includes(lower));
  return (
    <>
      <ul class="graphql-docs-list">
        {names.slice(0, MATCHES).map((name) => (
          <li key={name}>
            <button class="link-button" onClick={() => open(name)}>
              {name}
            </button>
          </li>
        ))}
      </ul>
      {names.length > MATCHES && <p class="muted">and {(names.length - MATCHES).toLocaleString('en-US')} more: type more of the name.</p>}
      {names.length === 0 && <p class="muted">No type is named like that.</p>}
    </>
  );
}

function TypeDocs({ type, open }: { type: GraphQLNamedType; open: (name: string) => void }) {
  const ref = (t: GraphQLType) => {
    const named = getNamedType(t);
    return (
      <button class="link-button type-ref" onClick={() => open(named.name)}>
        {t.toString()}
      </button>
    );
  };
  const fields = isObjectType(type) || isInterfaceType(type) || isInputObjectType(type) ? Object.values(type.getFields()) : [];
  return (
    <div class="graphql-type" data-testid="graphql-type">
      <h4>{type.name}</h4>
      {type.description && <p class="muted">{type.description}</p>}
      {fields.length > 0 && (
        <ul class="graphql-fields">
          {fields.map((f) => (
            <li key={f.name}>
              <code>{f.name}</code>
              {'args' in f && f.args.length > 0 && (
                <span>
                  (
                  {f.args.map((a: GraphQLArgument, i: number) => (
                    <span key={a.name}>
                      {i > 0 && ', '}
                      <code>{a.name}</code>: {ref(a.type)}
                    </span>
                  ))}
                  )
                </span>
              )}
              : {ref(f.type)}
              {f.description && <div class="muted">{f.description}</div>}
            </li>
          ))}
        </ul>
      )}
      {isEnumType(type) && (
        <ul class="graphql-fields">
          {type.getValues().map((v) => (
            <li key={v.name}>
              <code>{v.name}</code>
              {v.description && <div class="muted">{v.description}</div>}
            </li>
          ))}
        </ul>
      )}
      {isUnionType(type) && <p>One of: {type.getTypes().map((t) => <span key={t.name}>{ref(t)} </span>)}</p>}
    </div>
  );
}
