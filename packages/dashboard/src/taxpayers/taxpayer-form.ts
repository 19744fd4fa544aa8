import { checkboxField, inputField, type FormErrors } from '../html/form-fields';
import { html, type SafeHtml } from '../html/html';
import { t } from '../i18n/i18n';

export interface TaxpayerFormValues {
  nif: string;
  name: string;
  isProduction: boolean;
}

/** Form labels in the page's language, also used to name the API's field errors. */
export function taxpayerLabels(): Record<string, string> {
  return {
    nif: 'NIF',
    name: t('taxpayers.name'),
    is_production: t('environment.production'),
    certificate_p12_base64: t('taxpayers.certificateFile'),
    certificate_password: t('taxpayers.certificatePassword'),
  };
}

/** The API's upload field is the form's file input. */
export const TAXPAYER_FORM_FIELDS = { certificate_p12_base64: 'certificate' };

export function taxpayerFields(v: TaxpayerFormValues, errors: FormErrors, o: { nifLocked: boolean }): SafeHtml {
  return html`${inputField({
    name: 'nif',
    label: 'NIF',
    value: v.nif,
    errors,
    required: true,
    hint: o.nifLocked ? t('taxpayers.nifHintLocked') : t('taxpayers.nifHint'),
    attrs: html` maxlength="20" autocapitalize="characters" spellcheck="false"${o.nifLocked ? html` readonly` : ''}`,
  })}
  ${inputField({ name: 'name', label: t('taxpayers.name'), value: v.name, errors, required: true, hint: t('taxpayers.nameHint'), attrs: html` maxlength="120"` })}
  ${checkboxField({
    name: 'is_production',
    label: t('taxpayers.production'),
    checked: v.isProduction,
    errors,
    hint: t('taxpayers.productionHint'),
  })}`;
}

export function certificateFields(errors: FormErrors, o: { optional: boolean }): SafeHtml {
  return html`${inputField({
    name: 'certificate',
    label: t('taxpayers.certificateFile'),
    type: 'file',
    errors,
    required: !o.optional,
    hint: o.optional ? t('taxpayers.certificateOptionalHint') : t('taxpayers.certificateHint'),
    attrs: html` accept=".p12,.pfx,application/x-pkcs12"`,
  })}
  ${inputField({ name: 'certificate_password', label: t('taxpayers.certificatePassword'), type: 'password', errors, required: false, autocomplete: 'off', hint: t('taxpayers.certificatePasswordHint') })}`;
}
