import { checkboxField, inputField, type FormErrors } from '../html/form-fields';
import { html, type SafeHtml } from '../html/html';

export interface TaxpayerFormValues {
  nif: string;
  name: string;
  isProduction: boolean;
}

/** Form labels, also used to name the API's field errors. */
export const TAXPAYER_LABELS = {
  nif: 'NIF',
  name: 'Legal name',
  is_production: 'Production',
  certificate_p12_base64: 'Certificate file',
  certificate_password: 'Certificate password',
};

/** The API's upload field is the form's file input. */
export const TAXPAYER_FORM_FIELDS = { certificate_p12_base64: 'certificate' };

export function taxpayerFields(v: TaxpayerFormValues, errors: FormErrors, o: { nifLocked: boolean }): SafeHtml {
  return html`${inputField({
    name: 'nif',
    label: 'NIF',
    value: v.nif,
    errors,
    required: true,
    hint: o.nifLocked
      ? 'The NIF cannot change: this taxpayer already has registered records, which carry it.'
      : 'Spanish NIF, NIE or CIF with its check character, e.g. B12345674.',
    attrs: html` maxlength="20" autocapitalize="characters" spellcheck="false"${o.nifLocked ? html` readonly` : ''}`,
  })}
  ${inputField({ name: 'name', label: 'Legal name', value: v.name, errors, required: true, hint: 'As registered with the tax authority.', attrs: html` maxlength="120"` })}
  ${checkboxField({
    name: 'is_production',
    label: 'Production: send to the tax authority\'s real service',
    checked: v.isProduction,
    errors,
    hint: 'Leave unticked to use the authority\'s test environment (sandbox). Records sent to production are legally registered. Each environment has its own hash chain: switching starts (or resumes) the other environment\'s chain, and the invoices already registered stay in theirs.',
  })}`;
}

export function certificateFields(errors: FormErrors, o: { optional: boolean }): SafeHtml {
  return html`${inputField({
    name: 'certificate',
    label: 'Certificate file (PKCS#12, .p12 or .pfx)',
    type: 'file',
    errors,
    required: !o.optional,
    hint: o.optional
      ? 'Leave empty to use social-collaborator mode: the platform signs and sends this taxpayer\'s records with its own certificate.'
      : 'The qualified certificate of the taxpayer or of someone entitled to act for it, with its private key.',
    attrs: html` accept=".p12,.pfx,application/x-pkcs12"`,
  })}
  ${inputField({ name: 'certificate_password', label: 'Certificate password', type: 'password', errors, required: false, autocomplete: 'off', hint: 'The password that opens the file. It is stored encrypted and never shown again.' })}`;
}
