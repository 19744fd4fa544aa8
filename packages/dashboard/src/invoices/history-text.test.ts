import { formatRate } from '../html/format';
import { runInLocale } from '../i18n/i18n';
import { deliveryFailureText } from '../webhooks/webhook-labels';
import { authorityMessageText, failureText, historyNote } from './history-text';

const es = <T>(fn: () => T) => runInLocale('es', fn);
const en = <T>(fn: () => T) => runInLocale('en', fn);

// Every form of note the workers and stores write into a record's history (see apps/worker/src/sending and the
// submission stores), with what a Spanish reader sees.
const NOTES: [string, string][] = [
  ['sent to the authority (attempt 3)', 'enviado a la AEAT (intento 3)'],
  ['accepted by the authority', 'aceptado por la AEAT'],
  ['accepted by the authority (CSV A-1B2C3D)', 'aceptado por la AEAT (CSV A-1B2C3D)'],
  [
    'accepted with errors: 2004 El valor del campo FechaHoraHusoGenRegistro',
    'aceptado con errores: 2004 El valor del campo FechaHoraHusoGenRegistro',
  ],
  ['rejected: 1105 Valor del campo incorrecto', 'rechazado: 1105 Valor del campo incorrecto'],
  [
    'rejected: the authority already holds another record with number F-1 of 01-02-2026 (huella ABC)',
    'rechazado: la AEAT ya tiene otro registro con el número F-1 de 01-02-2026',
  ],
  [
    'the authority holds this very record (same huella, confirmed by the Consulta service): Correcto',
    'la AEAT tiene este mismo registro (misma huella, confirmado con el servicio de consulta): correcto',
  ],
  [
    'the authority holds this very record (same huella, confirmed by the Consulta service): AceptadoConErrores 2005 Importe',
    'la AEAT tiene este mismo registro (misma huella, confirmado con el servicio de consulta), aceptado con errores: 2005 Importe',
  ],
  [
    'the authority holds this very record (same huella, confirmed by the Consulta service), since cancelled (Anulado)',
    'la AEAT tiene este mismo registro (misma huella, confirmado con el servicio de consulta), anulado después',
  ],
  [
    'error: the authority refused the whole message (env:Client, code 4112); nothing was registered',
    'error: la AEAT rechazó el mensaje entero (env:Client, código 4112); no se registró nada',
  ],
  [
    'error: the authority refused the whole message (env:Client); nothing was registered',
    'error: la AEAT rechazó el mensaje entero (env:Client); no se registró nada',
  ],
  [
    'error before sending: waiting for the earlier record 1f0c, which needs attention',
    'espera a un registro anterior de la cadena que necesita atención',
  ],
  ['waiting for the earlier record 1f0c, which needs attention', 'espera a un registro anterior de la cadena que necesita atención'],
  ['error before sending: the taxpayer no longer exists', 'error antes del envío: el registro no se ha enviado'],
  ['resent on request', 'reenviado a petición del usuario'],
  // Forms the code catalogue's worker writes too.
  [
    'rejected: the Consulta service shows the authority holds no record of this invoice',
    'rechazado: el servicio de consulta muestra que la AEAT no tiene ningún registro de esta factura',
  ],
  // As versions that held a chain behind a 2007 wrote it, and as migration 0016 wrote its release.
  [
    'error: stored by the authority with error 2007 PrimerRegistro; needs attention',
    'error: la AEAT lo guardó con el error 2007 PrimerRegistro; necesita atención',
  ],
  [
    'the earlier record was registered by the authority with 2007 and no longer holds the chain: sent again',
    'reenviado: el registro anterior quedó registrado con el aviso 2007 y ya no retiene la cadena',
  ],
  [
    'error: the certificate is not accepted (HTTP 500 without body); nothing was registered',
    'error: la AEAT rechazó el mensaje entero; no se registró nada',
  ],
  [
    'sending resumed by an operator after the access suspension (4141): sent again',
    'reenviado al reanudar un operador los envíos tras la suspensión del acceso (4141)',
  ],
  [
    'the authority asked for a retry: 4102 Error temporal; next attempt at 2026-03-01T10:00:00.000Z',
    'el envío falló; próximo intento: 01/03/2026 11:00',
  ],
  ["the taxpayer's certificate or data changed: sent again", 'reenviado al cambiar el certificado o los datos del contribuyente'],
  ['transport error: HTTP 503; next attempt at 2026-03-01T10:00:00.000Z', 'el envío falló; próximo intento: 01/03/2026 11:00'],
  [
    'error: transport error: timeout; failing since 2026-03-01T09:00:00.000Z; next attempt at 2026-03-01T10:00:00.000Z',
    'los envíos fallan desde 01/03/2026 10:00; próximo intento: 01/03/2026 11:00',
  ],
  [
    'error: the authority answered the unknown EstadoRegistro "Raro"; next attempt at 2026-03-01T10:00:00.000Z',
    'el envío falló; próximo intento: 01/03/2026 11:00',
  ],
];

describe('history notes on the dashboard', () => {
  it.each(NOTES)('says "%s" in Spanish', (note, spanish) => {
    expect(es(() => historyNote(note))).toBe(spanish);
  });

  it('shows the note as written on an English page', () => {
    for (const [note] of NOTES) expect(en(() => historyNote(note))).toBe(note);
  });

  it('leaves a note of no known form out of a Spanish page, and says a failure of no known form in general words', () => {
    expect(es(() => historyNote('something new happened'))).toBe('');
    expect(es(() => failureText('transport error: connect ECONNREFUSED 127.0.0.1:443'))).toBe('el envío falló');
    expect(es(() => failureText('the authority refused the whole message (env:Client): 4112 Codigo[4112]'))).toBe(
      'error: la AEAT rechazó el mensaje entero (env:Client); no se registró nada',
    );
  });

  it("keeps the authority's own text, marked as Spanish, and says a taken number in the reader's language", () => {
    expect(String(en(() => authorityMessageText('Valor del campo incorrecto')))).toBe('<span lang="es">Valor del campo incorrecto</span>');
    expect(
      String(es(() => authorityMessageText('the authority already holds another record with number F-1 of 01-02-2026 (huella X)'))),
    ).toBe('rechazado: la AEAT ya tiene otro registro con el número F-1 de 01-02-2026');
  });

  it('writes rates and webhook failures in the language of the page', () => {
    expect(es(() => formatRate('10.00'))).toBe('10,00 %');
    expect(es(() => formatRate('5.2'))).toBe('5,20 %');
    expect(en(() => formatRate('10.00'))).toBe('10.00 %');
    expect(es(() => deliveryFailureText('no answer within 10000 ms'))).toBe('sin respuesta en 10000 ms');
    expect(es(() => deliveryFailureText('HTTP 503'))).toBe('HTTP 503');
    expect(es(() => deliveryFailureText('getaddrinfo ENOTFOUND example.test'))).toBe('error de red al conectar');
  });
});
