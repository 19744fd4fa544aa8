import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { XMLParser } from 'fast-xml-parser';
import { aeatErrorText } from './aeat-error-text';
import { buildConsultaRequest } from './build-consulta-request';
import { buildConsultaResponse } from './build-consulta-response';
import { buildRegFactuRequest } from './build-reg-factu-request';
import { buildRegFactuResponse } from './build-reg-factu-response';
import { buildSoapFault } from './build-soap-fault';
import { SCHEMA_DIR } from './schema-files';
import { cancellationRecord, f1Record, f2Record, foreignRecipientRecord, r1Record, SAMPLE_ISSUER } from './testing';
import { parseXml, REPEATED, XmlFormatError, type XmlNode } from './xml-reader';

// The reader the service used before (fast-xml-parser, still its XML writer), with the options it was read with:
// the documents the service exchanges must read the same, object for object.
const previous = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  htmlEntities: true,
  isArray: (name) => REPEATED.has(name),
  stopNodes: ['*.Signature'],
});
const readBefore = (xml: string) => {
  const { '?xml': _declaration, ...doc } = previous.parse(xml) as Record<string, unknown>;
  return doc;
};

const header = { obligado: SAMPLE_ISSUER };
const id = (n: string) => ({ issuerNif: SAMPLE_ISSUER.nif, invoiceNumber: n, invoiceDate: '13-10-2025' });
const example = (name: string) => readFileSync(join(SCHEMA_DIR, 'examples', name), 'utf8');

const documents: [string, string][] = [
  ['the authority example record', example('ejemploRegistro.xml')],
  ['the authority signed example record', example('ejemploRegistro-firmado-epes-xades4j.xml')],
  [
    'a request of every record kind, with escaped text',
    buildRegFactuRequest(header, [
      f1Record({ invoiceNumber: 'A&<1>"\'' }),
      f2Record(),
      r1Record(id('A-1')),
      foreignRecipientRecord(),
      cancellationRecord(id('A-2')),
    ]),
  ],
  [
    'a request whose record carries a signature',
    buildRegFactuRequest(header, [f1Record()]).replace(
      '</sum1:RegistroAlta>',
      '<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#" Id="s"><ds:SignedInfo><ds:X a="1">y</ds:X></ds:SignedInfo></ds:Signature></sum1:RegistroAlta>',
    ),
  ],
  [
    'an answer of accepted, refused and duplicate lines',
    buildRegFactuResponse({
      header,
      csv: 'A-86U4KHPACUMVZE',
      presenterNif: 'B85905495',
      presentedAt: '2025-10-13T12:34:56+02:00',
      waitSeconds: 60,
      sendState: 'ParcialmenteCorrecto',
      lines: [
        { id: id('A-1'), operation: 'Alta', externalRef: 'inv_1', state: 'Correcto' },
        {
          id: id('A-2'),
          operation: 'Anulacion',
          flags: { rechazoPrevio: 'S' },
          state: 'AceptadoConErrores',
          errorCode: 2000,
          errorDescription: 'La huella es incorrecta.',
        },
        {
          id: id('A-3'),
          operation: 'Alta',
          state: 'Incorrecto',
          errorCode: 3000,
          errorDescription: 'Registro de facturación duplicado.',
          duplicate: { requestId: '2025', state: 'AceptadaConErrores', errorCode: 2004, errorDescription: 'margen' },
        },
      ],
    }),
  ],
  ['a client fault', buildSoapFault({ side: 'client', code: 4112, message: aeatErrorText(4112)! })],
  ['a server fault with escaped text', buildSoapFault({ side: 'server', message: 'busy <now> & "later"' })],
  ['a Consulta request', buildConsultaRequest({ obligado: SAMPLE_ISSUER, period: { year: '2025', month: '01' } })],
  [
    'a Consulta answer',
    buildConsultaResponse({
      obligado: SAMPLE_ISSUER,
      period: { year: '2025', month: '01' },
      hasMore: true,
      records: [
        {
          id: id('C-1'),
          data: (({ id: _id, ...data }) => data)(f1Record({ invoiceNumber: 'C-1' })),
          state: 'Correcto',
          lastModified: '2025-01-15T10:21:00+01:00',
        },
      ],
    }),
  ],
  [
    'a document with a declaration, comments, CDATA, attributes, empty elements and whitespace',
    `<?xml version="1.0" encoding='UTF-8'?>\n<env:Envelope xmlns:env="urn:e">\n  <!-- note -->\n  <env:Header/>\n` +
      `  <env:Body Id="Body" a:x="1 &amp; 2" xmlns:a="urn:a">\n    <a:R k="v">  text &#65; </a:R><a:E></a:E><a:S k="v"/>` +
      `<a:T>1</a:T><a:T>2</a:T><a:W>   </a:W><a:C><![CDATA[1 < 2]]></a:C>\n  </env:Body>\n</env:Envelope>\n`,
  ],
];

describe('parseXml', () => {
  it.each(documents)('reads %s as the previous reader did', (_, xml) => {
    expect(parseXml(xml)).toEqual(readBefore(xml));
  });

  const answer = buildRegFactuResponse({
    header,
    waitSeconds: 60,
    sendState: 'Correcto',
    lines: [{ id: id('1'), operation: 'Alta', state: 'Correcto' }],
  });
  it.each([
    ['a truncated answer', answer.slice(0, answer.length - 20)],
    ['tags that do not match', '<a><b>1</a></b>'],
    ['two roots', '<a/><b/>'],
    ['an undeclared entity', '<a>&aacute;</a>'],
    ['a bare ampersand', '<a>1 & 2</a>'],
    ['an HTML page', '<html><body>503 Service Unavailable<br></body></html>'],
    ['an empty string', ''],
  ])('refuses %s as malformed', (_, xml) => {
    expect(() => parseXml(xml)).toThrow(XmlFormatError);
  });

  it('drops only XML white space around a value: a no-break space, a BOM or an ideographic space is part of it', () => {
    expect(parseXml('<a><b>\t F-1\u00a0\r\n</b><c>\ufeffX\u3000 </c></a>')).toEqual({ a: { b: 'F-1\u00a0', c: '\ufeffX\u3000' } });
  });
});

describe('a value kept from a document', () => {
  it('does not keep the document alive (the simulator holds each record it registered)', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const padding = 'x'.repeat(1_000_000);
    gc();
    const before = process.memoryUsage().heapUsed;
    const kept = Array.from({ length: 20 }, (_, i) => {
      const doc = parseXml(`<a><v>${'huella'.repeat(10)}-${i}</v><p>${padding}${i}</p></a>`);
      return (doc.a as XmlNode).v as string;
    });
    gc();
    const retainedMb = (process.memoryUsage().heapUsed - before) / 1e6;
    expect(kept[19]).toBe(`${'huella'.repeat(10)}-19`);
    // Twenty documents of 1 MB each: held by their values, they would stay.
    expect(retainedMb).toBeLessThan(10);
  });
});
