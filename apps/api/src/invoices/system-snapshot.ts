import type { SistemaInformatico } from '@vf/core';
import type { AppendSystem } from '@vf/db';

const yesNo = (b: boolean) => (b ? 'S' : 'N');

/**
 * The SistemaInformatico block as of this record. IndicadorMultiplesOT is computed, never chosen:
 * S when the account keeps records for more than one taxpayer (AEAT's "Aclaraciones a dudas de los
 * desarrolladores" §4).
 */
export function systemSnapshot(system: Omit<AppendSystem, 'id'>, accountHasSeveralTaxpayers: boolean): SistemaInformatico {
  return {
    NombreRazon: system.vendorName,
    NIF: system.vendorNif,
    NombreSistemaInformatico: system.name,
    IdSistemaInformatico: system.systemCode,
    Version: system.version,
    NumeroInstalacion: system.installationNumber,
    TipoUsoPosibleSoloVerifactu: yesNo(system.onlySupportsVerifactu),
    TipoUsoPosibleMultiOT: yesNo(system.supportsMultipleTaxpayers),
    IndicadorMultiplesOT: yesNo(accountHasSeveralTaxpayers),
  };
}
