/** POST /taxpayers/{id}/remissions: the records a requerimiento asks for, by invoice date (both days included). */
export interface RemissionBody {
  requirement_reference: string;
  period: { from: string; to: string };
}
