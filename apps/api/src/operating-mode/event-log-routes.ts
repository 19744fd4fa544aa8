import Joi from 'joi';
import { Router } from 'express';
import type { StoredEvent } from '@vf/db';
import { EVENT_TYPES } from '@vf/core';
import { currentAccount } from '../auth/require-api-key';
import { methodNotAllowed } from '../http/method-not-allowed';
import { parseWith } from '../http/parse-with';
import { sealedAnswerFor, sendAnswer, type JsonAnswer } from '../idempotency/sealed-answer';
import { envelope, id, nullableText, text, timestamp } from '../shared/answer-schema-parts';
import type { RouteDoc } from '../openapi/route-doc';
import { EVENT_TEXT_MAX } from '@vf/chain';
import type { EventLogService, EventQuery, OtherEventBody } from './event-log-service';

const eventQuerySchema = Joi.object<EventQuery, true>({
  system_id: Joi.string().guid(),
  type: Joi.string().valid(...EVENT_TYPES),
  from: Joi.string().isoDate(),
  to: Joi.string().isoDate(),
  after_seq: Joi.number().integer().min(0),
  order: Joi.string().valid('asc', 'desc').default('asc'),
  limit: Joi.number().integer().min(1).max(200).default(50),
});

const otherEventSchema = Joi.object<OtherEventBody, true>({
  system_id: Joi.string().guid().required().description('The computer system whose chain of events the event goes in.'),
  description: Joi.string()
    .trim()
    .min(1)
    .max(EVENT_TEXT_MAX)
    .required()
    .description('What happened, in up to 100 characters: the event’s OtrosDatosEvento.'),
});

function renderEvent(taxpayerId: string, e: StoredEvent) {
  return {
    id: e.id,
    system_id: e.computerSystemId,
    seq: e.seq,
    type: e.type,
    generated_at: e.generatedAtLiteral,
    hash: e.hash,
    previous_hash: e.previousHash,
    period_start: e.periodStart?.toISOString() ?? null,
    xml_url: `/api/v1/taxpayers/${taxpayerId}/events/${e.id}/xml`,
  };
}

const event = Joi.object<ReturnType<typeof renderEvent>, true>({
  id: id.required(),
  system_id: id.required().description('The computer system whose chain of events it is in.'),
  seq: Joi.number().integer().min(1).required().description('Its place in that chain, from 1.'),
  type: Joi.string()
    .valid(...EVENT_TYPES)
    .required()
    .description(
      'TipoEvento: 01/02 start and end of NO VERI*FACTU, 03-06 anomaly checks and anomalies, 07 a backup restored, 08/09 exports, 10 summary, 90 other.',
    ),
  generated_at: text.required().description('FechaHoraHusoGenEvento, as hashed.'),
  hash: text.required(),
  previous_hash: nullableText.required(),
  period_start: timestamp.allow(null).required().description('A summary’s six-hour period.'),
  xml_url: text.required(),
});

/** A taxpayer's event log: listed (walked forwards or backwards), one event, and an event as its signed XML. */
export function eventLogRoutes(events: EventLogService): Router {
  const router = Router();
  router
    .route('/taxpayers/:id/events')
    .get(async (req, res) => {
      const query = parseWith(eventQuerySchema, req.query);
      const list = await events.list(currentAccount(res).id, req.params.id, query);
      res.json({ data: list.map((e) => renderEvent(req.params.id, e)) });
    })
    .post(async (req, res) => {
      const body = parseWith(otherEventSchema, req.body);
      const answer = (e: StoredEvent): JsonAnswer => ({
        status: 201,
        location: `/api/v1/taxpayers/${req.params.id}/events/${e.id}`,
        body: { data: renderEvent(req.params.id, e) },
      });
      sendAnswer(res, answer, await events.recordOther(currentAccount(res).id, req.params.id, body, sealedAnswerFor(res, answer)));
    })
    .all(methodNotAllowed(['GET', 'POST']));
  router
    .route('/taxpayers/:id/events/:eventId')
    .get(async (req, res) => {
      res.json({ data: renderEvent(req.params.id, await events.get(currentAccount(res).id, req.params.id, req.params.eventId)) });
    })
    .all(methodNotAllowed(['GET']));
  router
    .route('/taxpayers/:id/events/:eventId/xml')
    .get(async (req, res) => {
      const e = await events.get(currentAccount(res).id, req.params.id, req.params.eventId);
      res.type('application/xml').attachment(`evento-${e.seq}-${e.type}-${e.id}.xml`).send(e.xml);
    })
    .all(methodNotAllowed(['GET']));
  return router;
}

export const eventLogRouteDocs: RouteDoc[] = [
  {
    method: 'get',
    operationId: 'listTaxpayerEvents',
    path: '/taxpayers/:id/events',
    tag: 'NO VERI*FACTU',
    summary: 'The taxpayer’s event log (NO VERI*FACTU), walked forwards or backwards',
    query: eventQuerySchema,
    responses: { 200: { description: 'Events in chain order (seq), per system.', json: envelope(Joi.array().items(event)) } },
    problems: ['validation_failed', 'taxpayer_not_found'],
  },
  {
    method: 'post',
    operationId: 'createTaxpayerEvent',
    path: '/taxpayers/:id/events',
    tag: 'NO VERI*FACTU',
    summary: 'Record an event of your own (90, other) in a system’s chain of events',
    description:
      'Something worth keeping in the event log that no other type says (Orden HAC/1177/2024 art. 9.1: 90, other): signed and chained like every event, its description as OtrosDatosEvento. Every other event is written by the service itself.',
    body: otherEventSchema,
    responses: { 201: { description: 'The event, signed and chained.', json: envelope(event) } },
    problems: ['validation_failed', 'taxpayer_not_found', 'system_not_found', 'signing_certificate_unusable'],
  },
  {
    method: 'get',
    operationId: 'getTaxpayerEvent',
    path: '/taxpayers/:id/events/:eventId',
    tag: 'NO VERI*FACTU',
    summary: 'One event',
    responses: { 200: { description: 'The event.', json: envelope(event) } },
    problems: ['taxpayer_not_found', 'event_not_found'],
  },
  {
    method: 'get',
    operationId: 'getTaxpayerEventXml',
    path: '/taxpayers/:id/events/:eventId/xml',
    tag: 'NO VERI*FACTU',
    summary: 'One event as its signed RegistroEvento (EventosSIF.xsd), as generated',
    responses: { 200: { description: 'The signed RegistroEvento.', media: { 'application/xml': { schema: { type: 'string' } } } } },
    problems: ['taxpayer_not_found', 'event_not_found'],
  },
];
