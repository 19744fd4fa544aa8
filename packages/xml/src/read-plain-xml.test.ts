import { aeatErrorText } from './aeat-error-text';
import { buildConsultaResponse } from './build-consulta-response';
import { buildRegFactuResponse } from './build-reg-factu-response';
import { buildSoapFault } from './build-soap-fault';
import { NS } from './namespaces';
import { buildRegFactuRequest } from './build-reg-factu-request';
import { parseXml, REPEATED } from './xml-reader';
import { readPlainXml } from './read-plain-xml';
import { f1Record, SAMPLE_ISSUER } from './testing';

const header = { obligado: { name: 'CONTRIBUYENTE DE PRUEBAS', nif: '89890001K' } };
const id = (n: string) => ({ issuerNif: '89890001K', invoiceNumber: n, invoiceDate: '13-10-2025' });

describe('readPlainXml', () => {
  const answers: [string, string][] = [
    [
      'an answer of accepted, refused and duplicate lines, with escaped text',
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
            id: id('A&<3>"\''),
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
    [
      'a one-line answer',
      buildRegFactuResponse({
        header,
        waitSeconds: 60,
        sendState: 'Correcto',
        lines: [{ id: id('1'), operation: 'Alta', state: 'Correcto' }],
      }),
    ],
    ['a client fault', buildSoapFault({ side: 'client', code: 4112, message: aeatErrorText(4112)! })],
    ['a server fault', buildSoapFault({ side: 'server', message: 'busy <now> & "later"' })],
    [
      'a Consulta answer with a record',
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
      'an answer with a declaration, attributes, empty and self-closed elements and whitespace',
      `<?xml version="1.0" encoding='UTF-8'?>\n<env:Envelope xmlns:env="${NS.soapenv}">\n  <env:Header/>\n  <env:Body Id="Body" a:x="1 &amp; 2" xmlns:a="urn:a">\n` +
        `    <a:R k="v">  text  </a:R><a:E></a:E><a:S k="v"/><a:T>1</a:T><a:T>2</a:T><a:W>   </a:W>\n  </env:Body>\n</env:Envelope>\n`,
    ],
  ];

  it.each(answers)('reads %s as the full parser does', (_, xml) => {
    const plain = readPlainXml(xml, REPEATED);
    expect(plain).toBeDefined();
    expect(plain).toEqual(parseXml(xml));
  });

  const readAnswer = buildRegFactuResponse({
    header,
    waitSeconds: 60,
    sendState: 'Correcto',
    lines: [{ id: id('1'), operation: 'Alta', state: 'Correcto' }],
  });
  const others: [string, string][] = [
    ['a truncated answer', readAnswer.slice(0, readAnswer.length - 20)],
    ['tags that do not match', '<a><b>1</a></b>'],
    ['two roots', '<a/><b/>'],
    ['text outside the root', '<a/>x'],
    ['a comment', '<a><!-- c --><b>1</b></a>'],
    ['CDATA', '<a><b><![CDATA[1 < 2]]></b></a>'],
    ['a DOCTYPE', '<!DOCTYPE a><a/>'],
    ['a character reference', '<a>&#65;</a>'],
    ['an undeclared entity', '<a>&aacute;</a>'],
    ['a bare ampersand', '<a>1 & 2</a>'],
    ['mixed content', '<a>x<b>1</b></a>'],
    ['a duplicate attribute', '<a k="1" k="2"/>'],
    [
      'a signed request, whose Signature the full parser keeps unparsed',
      buildRegFactuRequest(header, [f1Record()]).replace(
        '</sum1:RegistroAlta>',
        '<ds:Signature xmlns:ds="x"><ds:A>1</ds:A></ds:Signature></sum1:RegistroAlta>',
      ),
    ],
    ['an empty string', ''],
    ['an HTML page', '<html><body>503 Service Unavailable<br></body></html>'],
  ];

  it.each(others)('leaves %s to the full parser', (_, xml) => {
    expect(readPlainXml(xml, REPEATED)).toBeUndefined();
  });
});
