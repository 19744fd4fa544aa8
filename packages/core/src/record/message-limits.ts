/** Records one RegFactuSistemaFacturacion message may carry (RegistroFactura maxOccurs in SuministroLR.xsd; 4114 above). */
export const MAX_RECORDS_PER_MESSAGE = 1000;

/**
 * Entries one record's lists may hold: Destinatarios, FacturasRectificadas and FacturasSustituidas (maxOccurs in
 * SuministroInformacion.xsd; 4113 above).
 */
export const MAX_RECORD_LIST_ENTRIES = 1000;

/** Lines one record's Desglose may hold: DetalleDesglose, one per tax, regime and rate (maxOccurs 12; 4113 above). */
export const MAX_BREAKDOWN_LINES = 12;
