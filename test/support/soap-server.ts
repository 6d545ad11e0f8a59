/**
 * A real SOAP server built by the `soap` package from test/fixtures/wsdl/parley/calc.wsdl, on
 * 127.0.0.1: SOAP 1.1 and 1.2 document/literal and rpc/literal ports. It records every call it
 * dispatched (port, operation, arguments); Divide by zero answers a SOAP fault, in the port's
 * SOAP version.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as soap from 'soap';

export interface SoapCall {
  port: string;
  operation: string;
  args: Record<string, unknown>;
}

export interface CalcServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** The WSDL with its addresses pointing at this server, written to a temporary file. */
  wsdlPath: string;
  wsdlText: string;
  calls: SoapCall[];
  close(): Promise<void>;
}

export const CALC_WSDL = resolve(import.meta.dirname, '../fixtures/wsdl/parley/calc.wsdl');

function fault11(message: string): never {
  throw { Fault: { faultcode: 'soap:Client', faultstring: message, statusCode: 500 } };
}

function fault12(message: string): never {
  throw { Fault: { Code: { Value: 'soap:Sender' }, Reason: { Text: message }, statusCode: 500 } };
}

export async function startCalcServer(): Promise<CalcServer> {
  const http: Server = createServer();
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const wsdlText = readFileSync(CALC_WSDL, 'utf8').replaceAll('ENDPOINT', origin);
  const dir = mkdtempSync(join(tmpdir(), 'parley-calc-'));
  const wsdlPath = join(dir, 'calc.wsdl');
  writeFileSync(wsdlPath, wsdlText);
  const calls: SoapCall[] = [];
  const docPort = (port: string, fault: (m: string) => never) => ({
    Add(args: { a: string; b: string }) {
      calls.push({ port, operation: 'Add', args });
      return { sum: Number(args.a) + Number(args.b) };
    },
    Divide(args: { dividend: string; divisor: string }) {
      calls.push({ port, operation: 'Divide', args });
      if (Number(args.divisor) === 0) fault('Division by zero');
      return { quotient: Number(args.dividend) / Number(args.divisor) };
    },
  });
  const services = {
    CalcService: {
      CalcSoap11Port: docPort('CalcSoap11Port', fault11),
      CalcSoap12Port: docPort('CalcSoap12Port', fault12),
      CalcRpcPort: {
        Multiply(args: { x: string; y: string }) {
          calls.push({ port: 'CalcRpcPort', operation: 'Multiply', args });
          return { product: Number(args.x) * Number(args.y) };
        },
      },
    },
  };
  soap.listen(http, { path: /\/calc(11|12|rpc)/ as unknown as string, services, xml: wsdlText });
  return {
    origin,
    wsdlPath,
    wsdlText,
    calls,
    close: () =>
      new Promise<void>((r) => {
        http.closeAllConnections();
        http.close(() => r());
      }),
  };
}
