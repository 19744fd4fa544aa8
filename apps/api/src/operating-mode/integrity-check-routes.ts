import Joi from 'joi';
import { Router } from 'express';
import type { IntegrityCheckBody, IntegrityCheckReport } from '@vf/contract';
import type { OpenAlarm } from '@vf/db';
import { currentAccount } from '../auth/require-api-key';
import { methodNotAllowed } from '../http/method-not-allowed';
import { parseWith } from '../http/parse-with';
import { sealedAnswerFor, sendAnswer, type JsonAnswer } from '../idempotency/sealed-answer';
import { envelope, id, nullableText, text, timestamp } from '../shared/answer-schema-parts';
import type { RouteDoc } from '../openapi/route-doc';
import type { IntegrityCheckService } from './integrity-check-service';

export const checkBodySchema = Joi.object<IntegrityCheckBody, true>({
  subject: Joi.string().valid('records', 'events').required().description('The invoice records, or one system’s chain of events.'),
  system_id: Joi.string().guid().when('subject', { is: 'events', then: Joi.required(), otherwise: Joi.forbidden() }),
  from_seq: Joi.number().integer().min(1),
  to_seq: Joi.number().integer().min(1),
});

function renderReport(subject: string, r: IntegrityCheckReport) {
  return {
    subject,
    from_seq: r.fromSeq,
    to_seq: r.toSeq,
    checked: r.links.length,
    restored: r.restored,
    links: r.links.map((l) => ({
      seq: l.seq,
      id: l.id,
      generated_at: l.generatedAt,
      hash: l.hash,
      hash_ok: l.hashOk,
      signature_ok: l.signatureOk,
      link_ok: l.linkOk,
      date_ok: l.dateOk,
    })),
    anomalies: r.anomalies.map((a) => ({ seq: a.seq, id: a.id, kind: a.kind, anomaly_type: a.type, detail: a.detail })),
  };
}

const renderAlarm = (a: OpenAlarm) => ({
  id: a.id,
  subject: a.subject,
  anomaly: a.anomaly,
  record_id: a.recordId,
  detail: a.detail,
  raised_at: a.raisedAt.toISOString(),
});

const report = Joi.object<ReturnType<typeof renderReport>, true>({
  subject: Joi.string().valid('records', 'events').required(),
  from_seq: Joi.number().integer().required(),
  to_seq: Joi.number().integer().required(),
  checked: Joi.number().integer().required(),
  restored: Joi.boolean().required().description('The whole chain was checked and found sound: its alarm is cleared.'),
  links: Joi.array()
    .items(
      Joi.object({
        seq: Joi.number().integer().required(),
        id: id.required(),
        generated_at: text.required(),
        hash: text.required(),
        hash_ok: Joi.boolean().required(),
        signature_ok: Joi.boolean().required(),
        link_ok: Joi.boolean().required(),
        date_ok: Joi.boolean().required(),
      }),
    )
    .required()
    .description('Each link in chain order: walk it forwards, or backwards from the end.'),
  anomalies: Joi.array()
    .items(
      Joi.object({
        seq: Joi.number().integer().required(),
        id: id.required(),
        kind: Joi.string().valid('hash', 'signature', 'link', 'date').required(),
        anomaly_type: text.required().description('TipoAnomalia (list L1E), as the event 04 / 06 says.'),
        detail: text.required(),
      }),
    )
    .required(),
});

const alarm = Joi.object<ReturnType<typeof renderAlarm>, true>({
  id: id.required(),
  subject: Joi.string().valid('records', 'events').required(),
  anomaly: Joi.string().valid('hash', 'signature', 'time', 'chain').required(),
  record_id: id.allow(null).required(),
  detail: nullableText.required(),
  raised_at: timestamp.required(),
});

/** On-demand checks of a taxpayer's chains, and its integrity alarms. */
export function integrityCheckRoutes(checks: IntegrityCheckService): Router {
  const router = Router();
  router
    .route('/taxpayers/:id/checks')
    .post(async (req, res) => {
      const body = parseWith(checkBodySchema, req.body);
      const answer = (r: IntegrityCheckReport): JsonAnswer => ({ status: 200, body: { data: renderReport(body.subject, r) } });
      sendAnswer(res, answer, await checks.check(currentAccount(res).id, req.params.id, body, sealedAnswerFor(res, answer)));
    })
    .all(methodNotAllowed(['POST']));
  router
    .route('/taxpayers/:id/alarms')
    .get(async (req, res) => {
      res.json({ data: (await checks.alarms(currentAccount(res).id, req.params.id)).map(renderAlarm) });
    })
    .all(methodNotAllowed(['GET']));
  return router;
}

export const integrityCheckRouteDocs: RouteDoc[] = [
  {
    method: 'post',
    operationId: 'verifyTaxpayerChain',
    path: '/taxpayers/:id/checks',
    tag: 'NO VERI*FACTU',
    summary: 'Check the records’ chain, or a system’s chain of events, whole or a range, link by link',
    description:
      'Each record’s (or event’s) huella and signature, its link to the one before and the order of their times. Writes its events: the launch (03 or 05) and each anomaly found (04 or 06), which raises the alarm; a whole chain found sound clears it.',
    body: checkBodySchema,
    responses: { 200: { description: 'What the check found, link by link.', json: envelope(report) } },
    problems: ['validation_failed', 'taxpayer_not_found', 'signing_certificate_unusable'],
  },
  {
    method: 'get',
    operationId: 'listTaxpayerAlarms',
    path: '/taxpayers/:id/alarms',
    tag: 'NO VERI*FACTU',
    summary: 'The taxpayer’s integrity alarms not cleared',
    responses: { 200: { description: 'Oldest first; empty when integrity holds.', json: envelope(Joi.array().items(alarm)) } },
    problems: ['taxpayer_not_found'],
  },
];
