/**
 * The importer engine's public surface, for processes/importer/main.ts and the supervisor.
 * Pure: no process wiring here or below.
 */
export type { Detection, ImportContext, ImportInput, ImportOutcome, Importer, InputLocation } from './importer.js';
export { ImporterRegistry, createImporterRegistry, type RegisteredImporter } from './registry.js';
export { runDetectRules, type DetectRule } from './detect-rules.js';
export { createDocumentLoader, credentialSecrets, type DocumentLoader, type LoaderOptions } from './load/loader.js';
export { createMemoryLoader } from './load/memory-loader.js';
export { readImportInput } from './load/read-input.js';
export { Redactor } from './load/redact.js';
export { DEFAULT_LIMITS, type LoadLimits } from './load/limits.js';
export { fingerprintDocuments, type DocumentSet } from './load/document-set.js';
export { openApiImporter } from './openapi/importer.js';
export { definitionSecretName } from './openapi/convert.js';
export { readDefinition, buildDefinition, type ReadDefinition, type EntrySource } from './openapi/definition.js';
export { readCachedDefinition } from './definition-update/definitions.js';
export { previewDefinitionUpdate, type DefinitionUpdateInput } from './definition-update/preview.js';
export { applyDefinitionUpdate, type ApplyOptions } from './definition-update/apply.js';
export { readSourceDefinition } from './definition-update/read-source.js';
export { runImportJob, runDefinitionPreview, runDefinitionApply, type JobDeps } from './run-job.js';
