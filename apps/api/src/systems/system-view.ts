import type { SystemRow } from '@vf/db';

export function renderSystem(s: SystemRow) {
  return {
    id: s.id,
    vendor_name: s.vendorName,
    vendor_nif: s.vendorNif,
    name: s.name,
    version: s.version,
    installation_number: s.installationNumber,
    only_supports_verifactu: s.onlySupportsVerifactu,
    system_code: s.systemCode,
    supports_multiple_taxpayers: s.supportsMultipleTaxpayers,
    // Only a single-taxpayer system has one: the taxpayer whose records it keeps.
    sole_taxpayer_id: s.supportsMultipleTaxpayers ? null : s.soleTaxpayerId,
    created_at: s.createdAt.toISOString(),
    updated_at: s.updatedAt.toISOString(),
  };
}
