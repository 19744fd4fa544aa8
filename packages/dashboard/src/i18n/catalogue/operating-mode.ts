import type { Widen } from './widen';

/** The texts of a taxpayer's operating mode, its event log and its integrity alarm, in Spanish. */
export const esOperatingMode = {
  mode: {
    title: 'Modalidad',
    verifactu: 'VERI*FACTU',
    no_verifactu: 'NO VERI*FACTU',
    inForce: 'Modalidad en vigor',
    verifactuExplained: 'Cada registro se envía a la AEAT en cuanto se genera.',
    noVerifactuExplained:
      'Cada registro se firma al emitir la factura y se conserva aquí; solo se envía a la AEAT si esta lo requiere. El QR no lleva la leyenda «VERI*FACTU».',
    endsOn: 'Renuncia a VERI*FACTU declarada: NO VERI*FACTU a partir del día siguiente al {{date}}.',
    change: 'Cambiar la modalidad',
    changeHint:
      'VERI*FACTU puede empezar en cualquier momento. Una vez usada, se mantiene hasta el 31 de diciembre: pedir NO VERI*FACTU declara la renuncia para el año siguiente.',
    save: 'Guardar la modalidad',
    alarm: 'Alarma de integridad: se ha detectado una anomalía en la cadena y sigue activa hasta que se restablezca la integridad.',
    events: 'Registro de eventos',
    refusedUnsigned:
      'En NO VERI*FACTU cada registro se firma al emitir la factura, y ahora ningún certificado puede firmar por este contribuyente. Sube un certificado válido; no se ha cambiado nada.',
  },
  events: {
    title: 'Registro de eventos',
    lead: 'Los eventos del sistema en NO VERI*FACTU, firmados y encadenados: inicio y fin de la modalidad, anomalías, exportaciones y el resumen de cada seis horas.',
    none: 'Aún no hay eventos.',
    colSeq: 'Nº',
    colType: 'Evento',
    colDate: 'Fecha y hora',
    colHash: 'Huella',
    download: 'XML firmado',
    type: {
      '01': 'Inicio del funcionamiento como NO VERI*FACTU',
      '02': 'Fin del funcionamiento como NO VERI*FACTU',
      '03': 'Comprobación de los registros de facturación',
      '04': 'Anomalía en los registros de facturación',
      '05': 'Comprobación de los eventos',
      '06': 'Anomalía en los eventos',
      '07': 'Restauración de copia de seguridad',
      '08': 'Exportación de registros de facturación',
      '09': 'Exportación de eventos',
      '10': 'Resumen de eventos',
      '90': 'Otro evento',
    },
  },
};

export const enOperatingMode: Widen<typeof esOperatingMode> = {
  mode: {
    title: 'Operating mode',
    verifactu: 'VERI*FACTU',
    no_verifactu: 'NO VERI*FACTU',
    inForce: 'Mode in force',
    verifactuExplained: 'Each record is sent to the tax authority as soon as it is generated.',
    noVerifactuExplained:
      'Each record is signed when the invoice is issued and kept here; it goes to the tax authority only if it asks. The QR code carries no "VERI*FACTU" legend.',
    endsOn: 'Leaving VERI*FACTU declared: NO VERI*FACTU from the day after {{date}}.',
    change: 'Change the mode',
    changeHint:
      'VERI*FACTU can start at any time. Once used, it is kept until 31 December: asking for NO VERI*FACTU declares leaving it for next year.',
    save: 'Save the mode',
    alarm: 'Integrity alarm: an anomaly was found in the chain, and the alarm stays until integrity is restored.',
    events: 'Event log',
    refusedUnsigned:
      'In NO VERI*FACTU each record is signed when the invoice is issued, and no certificate can sign for this taxpayer now. Upload a valid certificate; nothing was changed.',
  },
  events: {
    title: 'Event log',
    lead: 'The system’s NO VERI*FACTU events, signed and chained: start and end of the mode, anomalies, exports and the six-hour summary.',
    none: 'No events yet.',
    colSeq: 'No.',
    colType: 'Event',
    colDate: 'Date and time',
    colHash: 'Huella',
    download: 'Signed XML',
    type: {
      '01': 'Start of NO VERI*FACTU operation',
      '02': 'End of NO VERI*FACTU operation',
      '03': 'Check of the invoice records',
      '04': 'Anomaly in the invoice records',
      '05': 'Check of the events',
      '06': 'Anomaly in the events',
      '07': 'Backup restored',
      '08': 'Export of invoice records',
      '09': 'Export of events',
      '10': 'Summary of events',
      '90': 'Other event',
    },
  },
};
