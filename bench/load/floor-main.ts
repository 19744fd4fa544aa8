/**
 * The HTTP floor's server: Express with the body parser the API uses and one route that parses an invoice and
 * answers 201 with a JSON the size of a registration's answer, nothing else (no auth, no validation, no database).
 * Its CPU per request is what any registration through Express costs on the machine. Sends its port to the harness
 * over IPC once listening; stops on SIGTERM.
 */
import { randomUUID } from 'node:crypto';
import express from 'express';

const HASH = 'A'.repeat(64);

const app = express();
app.disable('x-powered-by');
app.post('/api/v1/invoices', express.json({ limit: '1mb' }), (req, res) => {
  const body = req.body as { invoice_number?: string; taxpayer_id?: string };
  const id = randomUUID();
  // The fields of a registration's answer (`registeredAnswer` in apps/api/src/invoices/invoice-registration-service.ts), so the bytes written match.
  res
    .status(201)
    .location(`/api/v1/invoices/${id}`)
    .json({
      message: 'Invoice registered and queued for submission to the tax authority.',
      data: {
        id,
        invoice_number: body.invoice_number,
        hash: HASH,
        qr_url: `https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=${body.taxpayer_id}&numserie=${body.invoice_number}&fecha=01-01-2026&importe=121.00`,
        authority_status: 'queued',
        operating_mode: 'verifactu',
        signed_record: null,
        record_type: 'registration',
        taxpayer_id: body.taxpayer_id,
        chain_position: 1,
        previous_hash: HASH,
        generated_at: new Date().toISOString(),
        warnings: [],
      },
    });
});

const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send!({ port: typeof address === 'object' && address ? address.port : 0 });
});
process.once('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
