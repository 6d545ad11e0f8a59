import { Type as T, type Static } from '@sinclair/typebox';

export const Id = T.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });

/** A name/value row that can be switched off without being deleted. */
export const Row = T.Object({
  name: T.String(),
  value: T.String(),
  enabled: T.Boolean(),
});
export type Row = Static<typeof Row>;

export const Problem = T.Object({
  file: T.String(),
  line: T.Optional(T.Integer({ minimum: 1 })),
  rule: T.String(),
  message: T.String(),
});
/** A problem found while loading a file: which file, which line, which rule. */
export type Problem = Static<typeof Problem>;
