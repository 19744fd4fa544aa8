import { createHash } from 'node:crypto';
import { strToU8, zipSync } from 'fflate';
import { exportPeriod, MAX_EXPORTED, SignerUnavailableError, type AppendedEvent, type ExportedItem, type RecordSigner } from '@vf/chain';
import type { PeriodExportArchive, PeriodExportBody } from '@vf/contract';
import { madridToday } from '@vf/core';
import { eventLogStore, taxpayerStore, type Db } from '@vf/db';
import { ApiError } from '../errors/api-error';
import type { SealAnswer } from '../idempotency/sealed-answer';
import { isUuid } from '../http/is-uuid';
import { signingCertificateUnusable } from '../invoices/invoice-registration-service';

export type PeriodExportService = ReturnType<typeof createPeriodExportService>;

const taxpayerNotFound = () => new ApiError('taxpayer_not_found', 'No taxpayer with this id in your account.');
const INDEX_HEADER = 'orden;id;tipo;num_serie;fecha_expedicion;fecha_hora_generacion;huella;firmado;fichero;sha256';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const fileOf = (subject: string, item: ExportedItem) =>
  `${subject === 'records' ? 'registros' : 'eventos'}/${String(item.seq).padStart(7, '0')}-${item.kind}-${item.id}.xml`;

/** The archive: each document byte for byte as generated, an index (with each file's SHA-256), and the export's own event. */
function archive(subject: string, items: ExportedItem[], exportEvents: { id: string; xml: string }[]): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const index = [INDEX_HEADER];
  for (const item of items) {
    const name = fileOf(subject, item);
    files[name] = strToU8(item.xml);
    index.push(
      [
        item.seq,
        item.id,
        item.kind,
        item.invoice?.number ?? '',
        item.invoice?.date ?? '',
        item.generatedAt,
        item.hash,
        item.signed ? 'S' : 'N',
        name,
        sha256(item.xml),
      ].join(';'),
    );
  }
  files['indice.csv'] = strToU8(`${index.join('\r\n')}\r\n`);
  for (const e of exportEvents) files[`evento-exportacion-${e.id}.xml`] = strToU8(e.xml);
  return zipSync(files, { level: 6 });
}

/** Exports of a period's records or events as a faithful copy, each writing its event (08 / 09). */
export function createPeriodExportService(deps: { db: Db; signer: RecordSigner; clock: () => Date }) {
  const { db } = deps;
  return {
    /** `answer`: with an Idempotency-Key, what the key answers from now on, kept in the transaction of the export's event. */
    async export(
      accountId: string,
      taxpayerId: string,
      body: PeriodExportBody,
      answer?: SealAnswer<AppendedEvent[]>,
    ): Promise<PeriodExportArchive> {
      if (!isUuid(taxpayerId)) throw taxpayerNotFound();
      const taxpayer = await taxpayerStore.find(db, accountId, taxpayerId);
      if (!taxpayer?.chainId) throw taxpayerNotFound();
      const request = {
        chainId: taxpayer.chainId,
        subject: body.subject,
        systemId: body.system_id,
        from: new Date(body.from),
        to: new Date(body.to),
      };
      let done;
      try {
        done = await exportPeriod(db, request, { signer: deps.signer, now: deps.clock(), answer });
      } catch (err) {
        if (err instanceof SignerUnavailableError) throw signingCertificateUnusable(err.message);
        throw err;
      }
      if (done.kind === 'empty')
        throw new ApiError('export_period_empty', 'Nothing was generated in this period: there is nothing to export.');
      if (done.kind === 'too_large') {
        throw new ApiError('export_too_large', `The period holds more than ${MAX_EXPORTED} documents: export it in shorter periods.`);
      }
      const events = await Promise.all(done.events.map((e) => eventLogStore.find(db, taxpayer.chainId!, e.id)));
      const zip = archive(
        body.subject,
        done.items,
        events.flatMap((e) => (e ? [{ id: e.id, xml: e.xml }] : [])),
      );
      // The days of the period as a Spanish reader counts them (Madrid), whatever offset the instants came with.
      const day = (iso: string) => madridToday(new Date(iso));
      const fileName = `exportacion-${body.subject === 'records' ? 'registros' : 'eventos'}-${taxpayer.nif}-${day(body.from)}-${day(body.to)}.zip`;
      return { fileName, zip };
    },
  };
}
