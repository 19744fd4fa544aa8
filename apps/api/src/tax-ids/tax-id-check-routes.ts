import { Router } from 'express';
import { currentAccount } from '../auth/require-api-key';
import { methodNotAllowed } from '../http/method-not-allowed';
import { sendUnwrittenAnswer } from '../idempotency/sealed-answer';
import { parseWith } from '../http/parse-with';
import type { RouteDoc } from '../openapi/route-doc';
import { evidenceQuerySchema, evidenceResponse, MAX_SYNC_TAX_IDS, taxIdCheckResponse, taxIdCheckSchema } from './tax-id-check-schemas';
import { renderTaxIdAnswer } from './render-tax-id-answer';
import type { TaxIdCheckService } from './tax-id-check-service';

export function taxIdCheckRoutes(checks: TaxIdCheckService): Router {
  const router = Router();
  router
    .route('/tax-ids/check')
    .post(async (req, res) => {
      const input = parseWith(taxIdCheckSchema, req.body);
      const asked = input.tax_ids ?? [
        input.vat_number !== undefined ? { vat_number: input.vat_number } : { nif: input.nif!, name: input.name! },
      ];
      const taxIds = asked.map((q) => ('vat_number' in q ? { vatNumber: q.vat_number } : q));
      const answers = await checks.checkWithinAllowance(currentAccount(res).id, {
        taxIds,
        maxAge: input.max_age,
        taxpayerId: input.taxpayer_id,
      });
      // A check writes only its evidence: with an Idempotency-Key its answer is kept as it goes out, and a check whose
      // answer was lost is a new read of the census, with evidence of its own.
      await sendUnwrittenAnswer(res, {
        status: 200,
        body: { data: input.tax_ids ? answers.map(renderTaxIdAnswer) : renderTaxIdAnswer(answers[0]!) },
      });
    })
    .all(methodNotAllowed(['POST']));
  router
    .route('/tax-ids/checks')
    .get(async (req, res) => {
      const query = parseWith(evidenceQuerySchema, req.query);
      const evidence = await checks.evidence(currentAccount(res).id, { limit: query.limit, taxId: query.tax_id });
      res.json({
        data: evidence.map((c) => ({
          tax_id: c.taxId,
          result: c.result,
          detail: c.detail,
          source: c.source,
          request_digest: c.requestDigest,
          ...(c.requestIdentifier && { request_identifier: c.requestIdentifier }),
          ...(c.faultCode && { fault_code: c.faultCode }),
          checked_at: c.checkedAt.toISOString(),
        })),
      });
    })
    .all(methodNotAllowed(['GET']));
  return router;
}

export const taxIdCheckRouteDocs: RouteDoc[] = [
  {
    method: 'post',
    path: '/tax-ids/check',
    operationId: 'verifyTaxIds',
    tag: 'Tax IDs',
    summary: 'Check Spanish tax IDs against the authority’s census, and EU VAT numbers with VIES',
    description:
      `One NIF with its name (\`nif\`, \`name\`), one EU VAT number (\`vat_number\`), each answered as one object, or a ` +
      `list of up to ${MAX_SYNC_TAX_IDS} of either (\`tax_ids\`: answered as a list in the same order). Each answer says ` +
      'whether the census (or VIES) knows the tax ID (`valid`), does not (`invalid`, with the reason), or could not say ' +
      "now (`unknown`, with VIES's fault code); whether it came from the census, from a census answer held within " +
      "`max_age` (shared by the deployment's accounts), or from VIES; and when it was given. Each check is kept as " +
      'evidence of your account (`GET /tax-ids/checks`).',
    body: taxIdCheckSchema,
    responses: { 200: { description: 'The answer for each tax ID.', json: taxIdCheckResponse } },
    problems: ['validation_failed', 'taxpayer_not_found', 'tax_id_checks_exceeded', 'census_unavailable', 'vies_unavailable'],
  },
  {
    method: 'get',
    path: '/tax-ids/checks',
    operationId: 'listTaxIdChecks',
    tag: 'Tax IDs',
    summary: 'Your evidence of the tax IDs you checked',
    description: 'Newest first: the date, the tax ID, the answer, where it came from and a digest of the request sent to the census.',
    query: evidenceQuerySchema,
    responses: { 200: { description: 'The checks of your account.', json: evidenceResponse } },
    problems: ['validation_failed'],
  },
];
