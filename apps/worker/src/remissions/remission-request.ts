import { signedRecordMark } from '@vf/db';
import { regFactuRequestFrame, type SubmissionHeader } from '@vf/xml';

/** A remission's message: the bytes that go, and the request as kept, each record a mark of its signed bytes. */
export interface RemissionRequest {
  request: Buffer[];
  storedXml: string;
}

/**
 * RegFactuSistemaFacturacion with the requerimiento's header around the records' signed bytes, each embedded exactly
 * as kept (a signature over the standalone record holds only on those bytes). Undefined when a record's signed bytes
 * are missing: nothing else may stand in for them.
 */
export function remissionRequest(
  header: SubmissionHeader,
  invoiceIds: string[],
  signed: Map<string, string>,
): RemissionRequest | undefined {
  const frame = regFactuRequestFrame(header);
  const open = Buffer.from(frame.open);
  const close = Buffer.from(frame.close);
  const request = [Buffer.from(frame.head)];
  const stored = [frame.head];
  for (const id of invoiceIds) {
    const xml = signed.get(id);
    if (xml === undefined) return undefined;
    request.push(open, Buffer.from(xml, 'utf8'), close);
    stored.push(frame.open, signedRecordMark(id), frame.close);
  }
  request.push(Buffer.from(frame.tail));
  stored.push(frame.tail);
  return { request, storedXml: stored.join('') };
}
