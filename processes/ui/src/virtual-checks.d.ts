/** Message checks compiled at build time (protocol/compiled-checks.ts; scripts/build.mjs provides the module). */
declare module 'virtual:parley-checks' {
  export const checks: Readonly<Record<string, (value: unknown) => boolean>>;
}
