import type { Widen } from './widen';

/** The texts of the overview and its monthly chart, in Spanish. */
export const esOverview = {
  overview: {
    title: 'Resumen',
    signedInAs: 'Sesión iniciada como {{name}}',
    usageTitle: 'Uso de este mes',
    usageOf: 'de {{quota}} facturas',
    usageBar: 'Parte de la cuota mensual usada',
    usageHint: 'Plan {{plan}} · quedan {{remaining}} · el contador vuelve a empezar el {{resets}}.',
    usageWarn:
      'Has usado el {{share}} % de la cuota de este mes. Las facturas que la superen se rechazan hasta que el contador se reinicie.',
    countsTitle: 'Facturas por estado',
    colStatus: 'Estado',
    colInvoices: 'Facturas',
    colCorrective: 'Rectificativas',
    problemsTitle: 'Últimos rechazos, errores y avisos',
    noProblems: 'Ninguno: la AEAT no ha rechazado ni marcado ninguna de tus facturas.',
    colInvoice: 'Factura',
    colTaxpayer: 'Contribuyente',
    colAnswer: 'Respuesta de la AEAT',
    colWhen: 'Cuándo',
    pendingTitle: 'Esperando a la AEAT',
    pendingHint:
      'La AEAT admite un mensaje por cadena (contribuyente y entorno: pruebas o producción) en cada tiempo de espera (empieza en 60 s y cada respuesta puede cambiarlo), salvo que esperen 1.000 registros.',
    nothingPending: 'No hay nada esperando: todas las facturas registradas tienen respuesta.',
    colWaiting: 'Registros en espera',
    colOldest: 'Generado el más antiguo',
    colNextSend: 'Próximo envío permitido',
    nextWithMessage: 'con el próximo mensaje (aún no se ha enviado)',
    now: 'ahora',
    inWait: '{{at}} (dentro de {{wait}})',
    failedAttempts_one: '{{count}} intento fallido, reintentando',
    failedAttempts_other: '{{count}} intentos fallidos, reintentando',
    outage_one:
      '<strong>{{count}} registro espera a la AEAT</strong> porque no responde desde el {{since}}. El servicio los reenvía solo, en orden y al menos cada hora; no tienes que hacer nada.',
    outage_other:
      '<strong>{{count}} registros esperan a la AEAT</strong> porque no responde desde el {{since}}. El servicio los reenvía solo, en orden y al menos cada hora; no tienes que hacer nada.',
  },
  chart: {
    title: 'Registros por estado, últimos 12 meses',
    desc: 'Barras apiladas por mes con el número de facturas registradas en cada estado, de {{from}} a {{to}}; {{total}} en total. La tabla siguiente da las mismas cifras.',
    tableToggle: 'Ver las cifras en una tabla',
    month: 'Mes',
    total: 'Total',
    empty: 'Aún no hay registros en los últimos 12 meses.',
  },
} as const;

/** The same texts in English. */
export const enOverview: Widen<typeof esOverview> = {
  overview: {
    title: 'Overview',
    signedInAs: 'Signed in as {{name}}',
    usageTitle: "This month's usage",
    usageOf: 'of {{quota}} invoices',
    usageBar: 'Share of the monthly quota used',
    usageHint: '{{plan}} plan · {{remaining}} left · the count starts again on {{resets}}.',
    usageWarn: "You have used {{share}}% of this month's quota. Registrations beyond it are refused until the count resets.",
    countsTitle: 'Invoices by status',
    colStatus: 'Status',
    colInvoices: 'Invoices',
    colCorrective: 'Corrective',
    problemsTitle: 'Latest rejections, errors and warnings',
    noProblems: 'None: the authority has not refused or flagged any of your invoices.',
    colInvoice: 'Invoice',
    colTaxpayer: 'Taxpayer',
    colAnswer: "Authority's answer",
    colWhen: 'When',
    pendingTitle: 'Waiting for the authority',
    pendingHint:
      'The authority allows one message per chain (taxpayer and environment: sandbox or production) per waiting time (it starts at 60 s and each answer may change it), unless 1,000 records are waiting.',
    nothingPending: 'Nothing is waiting: every registered invoice has an answer.',
    colWaiting: 'Records waiting',
    colOldest: 'Oldest generated',
    colNextSend: 'Next send allowed',
    nextWithMessage: 'with the next message (no send yet)',
    now: 'now',
    inWait: '{{at}} (in {{wait}})',
    failedAttempts_one: '{{count}} failed attempt, retrying',
    failedAttempts_other: '{{count}} failed attempts, retrying',
    outage_one:
      '<strong>{{count}} record is waiting for the authority</strong> because it has not answered since {{since}}. It is resent automatically, in order, at least hourly; you need not do anything.',
    outage_other:
      '<strong>{{count}} records are waiting for the authority</strong> because it has not answered since {{since}}. They are resent automatically, in order, at least hourly; you need not do anything.',
  },
  chart: {
    title: 'Registrations by status, last 12 months',
    desc: 'Stacked bars per month with the number of invoices registered in each status, from {{from}} to {{to}}; {{total}} in all. The table below gives the same figures.',
    tableToggle: 'Show the figures as a table',
    month: 'Month',
    total: 'Total',
    empty: 'No registrations in the last 12 months yet.',
  },
};
