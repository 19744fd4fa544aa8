import type { SistemaInformatico } from '@vf/core';
import type { AppendSystem } from '@vf/db';

const yesNo = (b: boolean) => (b ? 'S' : 'N');

/**
 * The SistemaInformatico block as of this record. IndicadorMultiplesOT is computed, never chosen (AEAT's developer
 * FAQ, "Aclaraciones a dudas de los desarrolladores" §4: S for every record of a user of the software with more than
 * one taxpayer): S when the system can keep several taxpayers' records (TipoUsoPosibleMultiOT=S) and the account
 * has more than one. A single-taxpayer system only ever keeps one taxpayer's records (see usableBy), so it says N/N.
 */
export function systemSnapshot(
  system: Pick<AppendSystem, Exclude<keyof AppendSystem, 'id' | 'soleTaxpayerId'>>,
  accountHasSeveralTaxpayers: boolean,
): SistemaInformatico {
  return {
    NombreRazon: system.vendorName,
    NIF: system.vendorNif,
    NombreSistemaInformatico: system.name,
    IdSistemaInformatico: system.systemCode,
    Version: system.version,
    NumeroInstalacion: system.installationNumber,
    TipoUsoPosibleSoloVerifactu: yesNo(system.onlySupportsVerifactu),
    TipoUsoPosibleMultiOT: yesNo(system.supportsMultipleTaxpayers),
    IndicadorMultiplesOT: yesNo(system.supportsMultipleTaxpayers && accountHasSeveralTaxpayers),
  };
}
