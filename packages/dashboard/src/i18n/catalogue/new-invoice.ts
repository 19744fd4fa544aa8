import type { Widen } from './widen';

/** The texts of the new invoice form, in Spanish. */
export const esNewInvoice = {
  newInvoice: {
    title: 'Nueva factura',
    link: 'Nueva factura',
    lead: 'Una factura completa (F1) o simplificada (F2) con IVA del régimen general. Se registra como por la API (POST /api/v1/invoices), con la comprobación de destinatarios de tu cuenta, y se envía a la AEAT.',
    needsSetup: 'Para registrar una factura hace falta un contribuyente y un sistema informático: créalos en Contribuyentes y Sistemas.',
    taxpayer: 'Emisor',
    system: 'Sistema informático',
    number: 'Número y serie',
    numberHint: 'Tal como figura en la factura, por ejemplo A-2026-0042.',
    date: 'Fecha de expedición',
    recipientHint: 'Un cliente español por su NIF, o uno de otro país de la UE por su NIF-IVA; una simplificada (F2) puede no llevarlo.',
    vatNumber: 'NIF-IVA (UE)',
    vatNumberHint: 'Con el prefijo del país, por ejemplo FR12345678901; se comprueba en VIES.',
    linesHint:
      'Base, tipo y cuota de cada línea (IVA, régimen general); una cuota vacía se calcula con la base y el tipo. Los totales se suman de las líneas.',
    total: 'Importe total',
    totalTax: 'Cuota total',
    submit: 'Registrar la factura',
    duplicate: 'Ya hay una factura registrada con este número y esta fecha para el emisor.',
    refused: {
      recipient_not_in_census:
        'No se ha registrado: el censo de la AEAT no identifica al destinatario con ese NIF y ese nombre. Corrige el NIF o el nombre, o envíalo por la API como no censado (id_type 07).',
      recipient_not_in_vies:
        'No se ha registrado: VIES no conoce el NIF-IVA del destinatario. Corrige el número o identifica al cliente de otro modo.',
      other: 'No se ha registrado la factura (código {{code}}).',
    },
  },
};

export const enNewInvoice: Widen<typeof esNewInvoice> = {
  newInvoice: {
    title: 'New invoice',
    link: 'New invoice',
    lead: 'A full (F1) or simplified (F2) invoice with VAT under the general regime. It is registered as through the API (POST /api/v1/invoices), with your account’s recipient check, and sent to the tax authority.',
    needsSetup: 'Registering an invoice needs a taxpayer and a computer system: create them under Taxpayers and Systems.',
    taxpayer: 'Issuer',
    system: 'Computer system',
    number: 'Number and series',
    numberHint: 'As the invoice shows it, such as A-2026-0042.',
    date: 'Issue date',
    recipientHint: 'A Spanish customer by NIF, or one from another EU country by EU VAT number; a simplified invoice (F2) may have none.',
    vatNumber: 'EU VAT number',
    vatNumberHint: 'With the country prefix, such as FR12345678901; checked with VIES.',
    linesHint:
      'Base, rate and tax of each line (VAT, general regime); an empty tax is worked out from the base and the rate. The totals are the lines’ sums.',
    total: 'Total amount',
    totalTax: 'Total tax',
    submit: 'Register the invoice',
    duplicate: 'The issuer already has an invoice registered with this number and date.',
    refused: {
      recipient_not_in_census:
        'Not registered: the tax authority’s census does not identify the recipient with this NIF and name. Correct the NIF or the name, or send it through the API as not registered (id_type 07).',
      recipient_not_in_vies:
        'Not registered: VIES does not know the recipient’s EU VAT number. Correct the number or identify the customer another way.',
      other: 'The invoice was not registered (code {{code}}).',
    },
  },
};
