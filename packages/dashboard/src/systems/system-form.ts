import type { SystemRow } from '@vf/db';
import { checkboxField, inputField, type FormErrors } from '../html/form-fields';
import { html, type SafeHtml } from '../html/html';
import { t } from '../i18n/i18n';

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

const FIELDS = [
  'vendor_name',
  'vendor_nif',
  'name',
  'version',
  'installation_number',
  'system_code',
  'only_supports_verifactu',
  'supports_multiple_taxpayers',
] as const;

/** Form labels in the page's language, also used to name the API's field errors. */
export function systemLabels(): Record<(typeof FIELDS)[number], string> {
  return Object.fromEntries(FIELDS.map((f) => [f, t(`systems.${f}`)])) as Record<(typeof FIELDS)[number], string>;
}

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
  const labels = systemLabels();
  const text = (name: (typeof FIELDS)[number] & keyof SystemFormValues, hint: string, maxlength: number, required = true) =>
    inputField({
      name,
      label: labels[name],
      value: String(v[name]),
      errors,
      required,
      hint: t(`systems.${hint}`),
      attrs: html` maxlength="${maxlength}"`,
    });
  return html`${text('vendor_name', 'hintVendorName', 120)}
    ${text('vendor_nif', 'hintVendorNif', 20)}
    ${text('name', 'hintName', 30)}
    ${text('version', 'hintVersion', 50)}
    ${text('installation_number', 'hintInstallation', 100)}
    ${text('system_code', 'hintCode', 2, false)}
    ${checkboxField({ name: 'only_supports_verifactu', label: t('systems.checkOnlyVerifactu'), checked: v.only_supports_verifactu, errors })}
    ${checkboxField({ name: 'supports_multiple_taxpayers', label: t('systems.checkMultiple'), checked: v.supports_multiple_taxpayers, errors })}`;
}
