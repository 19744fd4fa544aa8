import type { Widen } from './widen';

/** The texts of the sandbox scenario panel, in Spanish. */
export const esSandbox = {
  sandbox: {
    title: 'Factura de prueba con escenario',
    lead: 'Envía una factura de prueba y elige qué responde la AEAT: rechazo, aceptación con errores, respuesta perdida, caída del servicio… Va a un simulador, nunca a la AEAT, en una cadena aparte de la de este contribuyente, y pasa por los mismos estados y webhooks que una real.',
    system: 'Sistema informático',
    noSystem: 'Primero <a href="/app/systems/new">añade un sistema informático</a>: toda factura lo lleva.',
    scenario: 'Escenario',
    parameter: 'Código o segundos',
    parameterHint: 'Para los escenarios que lo piden: un código de la tabla de la AEAT (p. ej. 1100, 4104, 2001) o un número de segundos.',
    send: 'Enviar factura de prueba',
    description: 'Factura de prueba (escenario {{scenario}})',
    needsParameter: 'Este escenario necesita un código o un número de segundos.',
    scenarioLabel: 'Escenario de prueba',
    scenarioNote: 'Factura de prueba: la respondió el simulador, no la AEAT.',
    refused: 'No se ha enviado la factura de prueba (código {{code}}): nada se ha guardado.',
  },
};

export const enSandbox: Widen<typeof esSandbox> = {
  sandbox: {
    title: 'Test invoice with a scenario',
    lead: 'Send a test invoice and choose what the tax authority answers: a rejection, an acceptance with errors, a lost reply, an outage… It goes to a simulator, never to the authority, on a chain apart from this taxpayer’s, and goes through the same statuses and webhooks as a real one.',
    system: 'Computer system',
    noSystem: 'First <a href="/app/systems/new">add a computer system</a>: every invoice names one.',
    scenario: 'Scenario',
    parameter: 'Code or seconds',
    parameterHint: 'For the scenarios that take one: a code of the authority’s table (e.g. 1100, 4104, 2001) or a number of seconds.',
    send: 'Send test invoice',
    description: 'Test invoice (scenario {{scenario}})',
    needsParameter: 'This scenario needs a code or a number of seconds.',
    scenarioLabel: 'Test scenario',
    scenarioNote: 'Test invoice: the simulator answered it, not the tax authority.',
    refused: 'The test invoice was not sent (code {{code}}): nothing was written.',
  },
};
