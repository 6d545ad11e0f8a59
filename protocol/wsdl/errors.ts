import { ParleyError } from '../errors.js';

/**
 * Codes of a WSDL read that cannot go on: `wsdl-not-wsdl` (the entry is not a wsdl:definitions
 * document), `wsdl-xml-invalid`, `wsdl-dtd-refused`, `wsdl-too-large`, `wsdl-too-deep`,
 * `wsdl-too-many-documents`. `data.location` names the document.
 */
export type WsdlErrorCode =
  | 'wsdl-not-wsdl'
  | 'wsdl-xml-invalid'
  | 'wsdl-dtd-refused'
  | 'wsdl-too-large'
  | 'wsdl-too-deep'
  | 'wsdl-too-many-documents'
  /** Thrown by a reader: this one document cannot be read (reported as a problem, the read goes on). */
  | 'wsdl-unreadable';

export class WsdlError extends ParleyError {
  constructor(code: WsdlErrorCode, message: string, location: string) {
    super(code, message, { location });
  }
}
