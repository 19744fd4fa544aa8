const AEAT_WS = 'https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws';

const CENSUS_WS = 'http://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/burt/jdit/ws';

/** Namespace URIs of the VERI*FACTU messages (AEAT's XSDs); note `tike/cont/ws`, not the `tikeV1.0` download path. */
export const NS = {
  soapenv: 'http://schemas.xmlsoap.org/soap/envelope/',
  suministroLR: `${AEAT_WS}/SuministroLR.xsd`,
  suministroInformacion: `${AEAT_WS}/SuministroInformacion.xsd`,
  respuestaSuministro: `${AEAT_WS}/RespuestaSuministro.xsd`,
  consultaLR: `${AEAT_WS}/ConsultaLR.xsd`,
  respuestaConsultaLR: `${AEAT_WS}/RespuestaConsultaLR.xsd`,
  respuestaValRegistNoVeriFactu: `${AEAT_WS}/RespuestaValRegistNoVeriFactu.xsd`,
  eventosSIF: `${AEAT_WS}/EventosSIF.xsd`,
  xmldsig: 'http://www.w3.org/2000/09/xmldsig#',
  // The census check's namespaces are `http`, as its WSDL and every working client write them (not `https`).
  censusRequest: `${CENSUS_WS}/VNifV2Ent.xsd`,
  censusReply: `${CENSUS_WS}/VNifV2Sal.xsd`,
} as const;
