/**
 * Codes only the authority can give: they depend on what it alone knows (its census, its registry of records and
 * systems, its clock, the certificate's powers, the state of its service) or on its own failures. The service cannot
 * check them before sending; it explains each to the user when it comes back.
 */
export interface AuthorityOnly {
  codes: number[];
  why: string;
}

export const AUTHORITY_ONLY: AuthorityOnly[] = [
  { codes: [4104, 4107, 1109, 1110, 1121, 1217, 2001], why: "the NIF is checked against the authority's census" },
  {
    codes: [3000, 3001, 3002, 3003, 3004, 3503, 1242, 2007],
    why: 'the authority compares the record with the records and systems it already holds, sent by this or any other software',
  },
  { codes: [4108, 4110, 4112, 4132, 4140], why: 'the authority judges the certificate and the powers its holder has been granted' },
  { codes: [4134, 4139, 4141], why: "the state of the authority's service, or of this presenter's access to it" },
  { codes: [2004], why: 'the authority compares FechaHoraHusoGenRegistro with its own clock when the record arrives' },
  {
    codes: [4103, 4111, 4118, 4128, 3500, 3501, 1129, 1241, 1243, 1256, 1288],
    why: "a technical failure inside the authority's service",
  },
  {
    codes: [1178, 1179, 1180, 1215, 1239, 1240],
    why: "the authority's catch-all for a block it could not process; every rule of the block the service can check has its own code here",
  },
  {
    codes: [1210, 1216],
    why: "the authority's earlier version of the totals rule: its current validation document makes the same gap admissible (2005, 2006, checked here as warnings)",
  },
];
