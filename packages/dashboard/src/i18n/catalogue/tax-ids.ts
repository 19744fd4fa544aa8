import type { Widen } from './widen';

/** The texts of the tax ID checks (the recipient check of the invoice form, the list check page), in Spanish. */
export const esTaxIds = {
  taxIds: {
    title: 'Comprobar NIF',
    lead: 'Comprueba en el censo de la AEAT (y en VIES, para los NIF-IVA de la UE) una lista de hasta 10.000 identificadores antes de facturar. Cada comprobación cuenta en el cupo mensual de tu plan.',
    file: 'Fichero CSV',
    fileHint:
      'Una primera línea con los nombres de las columnas: tax_id y name (el nombre o razón social, para los NIF españoles); separadas por coma o punto y coma. Un identificador que empieza por dos letras es un NIF-IVA de la UE.',
    submit: 'Comprobar la lista',
    noFile: 'Elige el fichero CSV con la lista.',
    refused: 'La lista no se puede comprobar: {{detail}}',
    row: 'Línea {{line}}',
    listTitle: 'Lista de NIF',
    progress: 'Comprobados {{answered}} de {{total}}',
    pending: 'Comprobando… la página se actualiza sola.',
    done: 'Lista comprobada.',
    download: 'Descargar los resultados (CSV)',
    another: 'Comprobar otra lista',
    checking: 'Comprobando en el censo…',
    badNif: 'El NIF no es válido: revisa sus cifras y su letra.',
    identified: 'Identificado en el censo de la AEAT.',
    similar: 'Nombre similar: en el censo figura «{{name}}».',
    not_identified: 'No identificado en el censo con ese NIF y ese nombre.',
    deregistered: 'Identificado, pero de baja en el censo.',
    revoked: 'NIF revocado.',
    not_processed: 'No procesado: inténtelo más tarde.',
    unavailable: 'El censo no ha podido comprobarlo ahora: inténtelo más tarde.',
  },
};

export const enTaxIds: Widen<typeof esTaxIds> = {
  taxIds: {
    title: 'Check tax IDs',
    lead: 'Check a list of up to 10,000 tax IDs against the tax authority’s census (and VIES, for EU VAT numbers) before invoicing. Every check counts against your plan’s monthly allowance.',
    file: 'CSV file',
    fileHint:
      'A first line naming the columns: tax_id and name (the holder’s name, for Spanish NIFs); comma or semicolon separated. A tax ID starting with two letters is an EU VAT number.',
    submit: 'Check the list',
    noFile: 'Choose the CSV file with the list.',
    refused: 'The list cannot be checked: {{detail}}',
    row: 'Line {{line}}',
    listTitle: 'List of tax IDs',
    progress: '{{answered}} of {{total}} checked',
    pending: 'Checking… this page updates by itself.',
    done: 'List checked.',
    download: 'Download the results (CSV)',
    another: 'Check another list',
    checking: 'Checking the census…',
    badNif: 'This NIF is not valid: check its digits and its letter.',
    identified: 'Identified in the tax authority’s census.',
    similar: 'Similar name: the census holds “{{name}}”.',
    not_identified: 'Not identified in the census with this NIF and name.',
    deregistered: 'Identified, but deregistered in the census.',
    revoked: 'Revoked NIF.',
    not_processed: 'Not processed: try again later.',
    unavailable: 'The census could not check it now: try again later.',
  },
};
