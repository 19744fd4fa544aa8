import type { Widen } from './widen';

/** The texts of what the census and VIES said of an invoice's recipients when it was registered, in Spanish. */
export const esKeptRecipientCheck = {
  keptCheck: {
    title: 'Comprobación de los destinatarios',
    lead: 'Lo que dijeron el censo de la AEAT (NIF españoles) y VIES (NIF-IVA de la UE) al registrar la factura.',
    colTaxId: 'NIF',
    colResult: 'Resultado',
    colDetail: 'Detalle',
    colSource: 'Fuente',
    colWhen: 'Comprobado',
    result: { valid: 'Válido', invalid: 'No válido', unknown: 'Sin respuesta' },
    source: { aeat_census: 'Censo de la AEAT', cache: 'Censo de la AEAT (respuesta guardada)', vies: 'VIES' },
    viesValid: 'NIF-IVA válido en VIES.',
    viesUnknownNumber: 'VIES no conoce este NIF-IVA.',
    viesRefused: 'VIES no lo acepta como NIF-IVA de ese país ({{code}}).',
    viesFault: 'VIES no ha podido comprobarlo ({{code}}): inténtelo más tarde.',
    consultation: 'Número de consulta VIES: {{id}}',
  },
};

export const enKeptRecipientCheck: Widen<typeof esKeptRecipientCheck> = {
  keptCheck: {
    title: 'Recipient check',
    lead: 'What the tax authority’s census (Spanish NIFs) and VIES (EU VAT numbers) said when the invoice was registered.',
    colTaxId: 'Tax ID',
    colResult: 'Result',
    colDetail: 'Detail',
    colSource: 'Source',
    colWhen: 'Checked',
    result: { valid: 'Valid', invalid: 'Not valid', unknown: 'No answer' },
    source: { aeat_census: 'Tax authority’s census', cache: 'Tax authority’s census (answer held)', vies: 'VIES' },
    viesValid: 'Valid EU VAT number in VIES.',
    viesUnknownNumber: 'VIES does not know this VAT number.',
    viesRefused: 'VIES does not take it as a VAT number of that country ({{code}}).',
    viesFault: 'VIES could not check it ({{code}}): try again later.',
    consultation: 'VIES consultation number: {{id}}',
  },
};
