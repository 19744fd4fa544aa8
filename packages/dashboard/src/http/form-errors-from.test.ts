import { apiProblems } from '@vf/api';
import { runInLocale } from '../i18n/i18n';
import { formErrorsFrom } from './form-errors-from';

const refused = apiProblems.validation([
  { field: 'name', code: 'too_long', message: 'name must be at most 120 characters' },
  { field: 'certificate_path', code: 'certificate_expired', message: 'certificate_path: the certificate expired on 2025-01-01' },
]);
const labels = { name: 'Nombre', certificate_path: 'Certificado' };

test('a Spanish page says every field problem in Spanish, naming a code the catalogue has no sentence for', () => {
  expect(runInLocale('es', () => formErrorsFrom(refused, labels))).toEqual({
    name: 'Nombre es demasiado largo.',
    certificate_path: 'Certificado no es válido (código certificate_expired); revisa el valor.',
  });
});

test("an English page keeps the API's own, more precise message under the form's label", () => {
  expect(runInLocale('en', () => formErrorsFrom(refused, { name: 'Name', certificate_path: 'Certificate' }))).toEqual({
    name: 'Name must be at most 120 characters.',
    certificate_path: 'Certificate: the certificate expired on 2025-01-01.',
  });
});
