/**
 * The importers Parley knows and SPEC's auto-detect over all of them. Each importer brings
 * its own detect rules; the registry runs every format's rules as one table, so a file name
 * that settles one format beats content that only looks like another.
 */
import { ParleyError } from '../../../protocol/errors.js';
import { runDetectRules, type DetectRule } from './detect-rules.js';
import type { Detection, ImportInput, Importer } from './importer.js';
import { OPENAPI_DETECT_RULES } from './openapi/detect.js';
import { openApiImporter } from './openapi/importer.js';
import { POSTMAN_COLLECTION_RULES, POSTMAN_ENVIRONMENT_RULES, POSTMAN_GLOBALS_RULES } from './postman/detect.js';
import { postmanCollectionImporter, postmanEnvironmentImporter, postmanGlobalsImporter } from './postman/importer.js';
import { HAR_DETECT_RULES } from './har/detect.js';
import { harImporter } from './har/importer.js';
import { WSDL_DETECT_RULES } from './wsdl/detect.js';
import { wsdlImporter } from './wsdl/importer.js';
import { SOAPUI_DETECT_RULES } from './soapui/detect.js';
import { soapuiImporter } from './soapui/importer.js';
import { PROTOBUF_DETECT_RULES } from './protobuf/detect.js';
import { protobufImporter } from './protobuf/importer.js';
import { HTTP_DETECT_RULES, HTTP_ENV_DETECT_RULES } from './http-file/detect.js';
import { httpEnvironmentImporter, httpFileImporter } from './http-file/importer.js';

export interface RegisteredImporter {
  importer: Importer;
  rules: DetectRule[];
}

export class ImporterRegistry {
  private readonly entries: RegisteredImporter[];

  /** Table order is priority order among rules of the same kind. */
  constructor(entries: RegisteredImporter[]) {
    this.entries = [...entries];
  }

  get(id: string): Importer | undefined {
    return this.entries.find((e) => e.importer.id === id)?.importer;
  }

  /** The ids of every importer, in table order. */
  ids(): string[] {
    return this.entries.map((e) => e.importer.id);
  }

  detectFormat(input: ImportInput): Detection | null {
    return runDetectRules(
      this.entries.flatMap((e) => e.rules),
      input,
    );
  }

  /** The importer for a job: `format` is 'auto' or an importer id. */
  pick(format: string, input: ImportInput): { importer: Importer; detection: Detection | null } {
    if (format === 'auto') {
      const detection = this.detectFormat(input);
      const importer = detection ? this.get(detection.format) : undefined;
      if (!detection || !importer) {
        // No advice here: each host says how to choose a format (the CLI's --format, the dialog's Format list).
        throw new ParleyError('import-unrecognised', `${input.name ?? 'The pasted text'} is not in a format Parley recognises.`);
      }
      return { importer, detection };
    }
    const importer = this.get(format);
    if (!importer) throw new ParleyError('import-unknown-format', `There is no importer for the format "${format}".`);
    return { importer, detection: importer.detect(input) };
  }
}

/**
 * Every importer this build has, each with its detect rules. A new format adds its entry here
 * and flips `built` in protocol/import-formats.ts (registry.test.ts keeps the two in step).
 */
export function createImporterRegistry(): ImporterRegistry {
  return new ImporterRegistry([
    { importer: openApiImporter, rules: OPENAPI_DETECT_RULES },
    { importer: postmanCollectionImporter, rules: POSTMAN_COLLECTION_RULES },
    { importer: postmanEnvironmentImporter, rules: POSTMAN_ENVIRONMENT_RULES },
    { importer: postmanGlobalsImporter, rules: POSTMAN_GLOBALS_RULES },
    { importer: harImporter, rules: HAR_DETECT_RULES },
    { importer: httpFileImporter, rules: HTTP_DETECT_RULES },
    { importer: httpEnvironmentImporter, rules: HTTP_ENV_DETECT_RULES },
    { importer: wsdlImporter, rules: WSDL_DETECT_RULES },
    // Its content rule looks only at how a .proto file opens, which no other format's text does.
    { importer: protobufImporter, rules: PROTOBUF_DETECT_RULES },
    { importer: soapuiImporter, rules: SOAPUI_DETECT_RULES },
  ]);
}
