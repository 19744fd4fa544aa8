import type { SistemaInformatico } from '../registration-record';
import { hashInputValue as value, sha256Hex } from '../hash/sha256-hex';
import type { EventType } from './sif-event';

export interface EventHashFields {
  system: Pick<SistemaInformatico, 'NIF' | 'IdSistemaInformatico' | 'Version' | 'NumeroInstalacion'>;
  issuerNif: string;
  type: EventType;
  /** HuellaEvento of the previous event; absent for the first. */
  previousHash?: string;
  generatedAt: string;
}

/**
 * The string an event's huella is computed over (AEAT's hash specification §2.c and §3, Orden HAC/1177/2024 art.
 * 13.1.c): the system's NIF or, for a foreign producer, its ID (the absent one written empty), then its id, version and
 * installation, the issuer's NIF, the type, the previous event's huella and the time.
 */
export function eventHashInput(f: EventHashFields): string {
  return (
    `NIF=${value(f.system.NIF)}&ID=&IdSistemaInformatico=${value(f.system.IdSistemaInformatico)}` +
    `&Version=${value(f.system.Version)}&NumeroInstalacion=${value(f.system.NumeroInstalacion)}&NIF=${value(f.issuerNif)}` +
    `&TipoEvento=${f.type}&HuellaEvento=${value(f.previousHash)}&FechaHoraHusoGenEvento=${value(f.generatedAt)}`
  );
}

/** HuellaEvento (TipoHuella 01): uppercase hex SHA-256 of eventHashInput. */
export function computeEventHash(f: EventHashFields): string {
  return sha256Hex(eventHashInput(f));
}
