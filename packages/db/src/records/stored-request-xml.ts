/**
 * A message's request XML is stored with each record whose signed bytes `signed_records` keeps replaced by this mark:
 * those bytes (about 8 KB a record, 8 MB in a 1,000-record message) are written once, and read back into the request
 * exactly as they went (they never change once kept). A comment cannot occur inside a record's content, where every
 * `<` is escaped.
 */
export function signedRecordMark(invoiceId: string): string {
  return `<!--signed-record ${invoiceId}-->`;
}

const MARK = /<!--signed-record (\S+?)-->/g;

/** The records a stored request refers to by mark (none in a request stored whole). */
export function markedRecordIds(storedXml: string): string[] {
  return Array.from(storedXml.matchAll(MARK), (m) => m[1]);
}

/** The request exactly as it went: each mark replaced by the record's signed bytes. */
export function requestXmlAsSent(storedXml: string, signed: Map<string, string>): string {
  return storedXml.replace(MARK, (mark, invoiceId: string) => {
    const xml = signed.get(invoiceId);
    if (xml === undefined) throw new Error(`the signed bytes of record ${invoiceId}, which a stored message refers to, are missing`);
    return xml;
  });
}
