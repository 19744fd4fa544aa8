import type { Widen } from './widen';

/** The texts of the API key page, in Spanish. */
export const esApiKey = {
  apiKey: {
    title: 'Clave API',
    issued: 'Se ha emitido una clave nueva. La anterior dejó de funcionar en ese momento.',
    current: 'Clave actual',
    startsWith: 'Empieza por',
    issuedAt: 'Emitida',
    regenerateTitle: 'Regenerar la clave',
    regenerateBody:
      'Hazlo si perdiste la clave o puede haberse filtrado. La clave actual deja de funcionar <strong>al instante</strong>: actualiza con la nueva todos los programas que la usan.',
    confirm: '¿Emitir una clave API nueva? La actual dejará de funcionar inmediatamente.',
    regenerate: 'Regenerar la clave API',
    newTitle: 'Tu nueva clave API',
    onlyOnce:
      '<strong>Cópiala ahora: solo se muestra esta vez.</strong> Solo guardamos una huella de ella, así que nadie puede volver a enseñártela. Si la pierdes, genera una nueva.',
    copy: 'Copiar',
    howToSend: 'Envíala como <code>Authorization: Bearer &lt;clave&gt;</code> en cada llamada a la API.',
  },
} as const;

/** The same texts in English. */
export const enApiKey: Widen<typeof esApiKey> = {
  apiKey: {
    title: 'API key',
    issued: 'A new key was issued. The previous key stopped working at that moment.',
    current: 'Current key',
    startsWith: 'Starts with',
    issuedAt: 'Issued',
    regenerateTitle: 'Regenerate the key',
    regenerateBody:
      'Do this if the key was lost or may have leaked. The current key stops working <strong>at once</strong>: update every program that uses it with the new one.',
    confirm: 'Issue a new API key? The current key will stop working immediately.',
    regenerate: 'Regenerate API key',
    newTitle: 'Your new API key',
    onlyOnce:
      '<strong>Copy it now: it is shown only this once.</strong> We keep only a fingerprint of it, so nobody can show it to you again. If you lose it, regenerate a new one.',
    copy: 'Copy',
    howToSend: 'Send it as <code>Authorization: Bearer &lt;key&gt;</code> on every API call.',
  },
};
