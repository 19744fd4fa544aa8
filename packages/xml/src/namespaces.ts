const AEAT_WS = 'https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws';

/** Namespace URIs of the VERI*FACTU messages (AEAT's XSDs); note `tike/cont/ws`, not the `tikeV1.0` download path. */
export const NS = {
  soapenv: 'http://schemas.xmlsoap.org/soap/envelope/',
  suministroLR: `${AEAT_WS}/SuministroLR.xsd`,
  suministroInformacion: `${AEAT_WS}/SuministroInformacion.xsd`,
  respuestaSuministro: `${AEAT_WS}/RespuestaSuministro.xsd`,
  consultaLR: `${AEAT_WS}/ConsultaLR.xsd`,
  respuestaConsultaLR: `${AEAT_WS}/RespuestaConsultaLR.xsd`,
  xmldsig: 'http://www.w3.org/2000/09/xmldsig#',
} as const;
