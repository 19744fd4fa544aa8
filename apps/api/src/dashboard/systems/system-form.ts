import type { SystemRow } from '@vf/db/src/stores';
import { checkboxField, inputField, type FormErrors } from '../html/form-fields';
import { html, type SafeHtml } from '../html/html';

export interface SystemFormValues {
  vendor_name: string;
  vendor_nif: string;
  name: string;
  version: string;
  installation_number: string;
  system_code: string;
  only_supports_verifactu: boolean;
  supports_multiple_taxpayers: boolean;
}

export const SYSTEM_LABELS = {
  vendor_name: 'Vendor name',
  vendor_nif: 'Vendor NIF',
  name: 'System name',
  version: 'Version',
  installation_number: 'Installation number',
  system_code: 'System code',
  only_supports_verifactu: 'Only supports VERI*FACTU',
  supports_multiple_taxpayers: 'Several taxpayers',
};

export const EMPTY_SYSTEM: SystemFormValues = {
  vendor_name: '',
  vendor_nif: '',
  name: '',
  version: '',
  installation_number: '',
  system_code: '',
  only_supports_verifactu: true,
  supports_multiple_taxpayers: true,
};

export function systemValues(s: SystemRow): SystemFormValues {
  return {
    vendor_name: s.vendorName,
    vendor_nif: s.vendorNif,
    name: s.name,
    version: s.version,
    installation_number: s.installationNumber,
    system_code: s.systemCode,
    only_supports_verifactu: s.onlySupportsVerifactu,
    supports_multiple_taxpayers: s.supportsMultipleTaxpayers,
  };
}

export function systemFields(v: SystemFormValues, errors: FormErrors): SafeHtml {
  const text = (name: keyof typeof SYSTEM_LABELS & keyof SystemFormValues, hint: string, maxlength: number, required = true) =>
    inputField({ name, label: SYSTEM_LABELS[name], value: String(v[name]), errors, required, hint, attrs: html` maxlength="${maxlength}"` });
  return html`${text('vendor_name', 'The company that produces the software.', 120)}
    ${text('vendor_nif', 'Spanish NIF of the vendor.', 20)}
    ${text('name', 'As the software is known; sent as NombreSistemaInformatico.', 30)}
    ${text('version', 'e.g. 2.4.1', 50)}
    ${text('installation_number', 'Identifies this installation of the software.', 100)}
    ${text('system_code', 'Two characters, capital letters A-Z (not Ñ) or digits. Left empty, the first two letters of the name are used.', 2, false)}
    ${checkboxField({ name: 'only_supports_verifactu', label: 'The software can only work in VERI*FACTU mode', checked: v.only_supports_verifactu, errors })}
    ${checkboxField({ name: 'supports_multiple_taxpayers', label: 'The software can keep records for several taxpayers', checked: v.supports_multiple_taxpayers, errors })}`;
}
