import type { Widen } from './widen';

/** The texts of signing in and signing up, in Spanish. */
export const esSignIn = {
  signIn: {
    title: 'Iniciar sesión',
    email: 'Correo electrónico',
    password: 'Contraseña',
    submit: 'Entrar',
    noAccount: '¿Aún no tienes cuenta? <a href="/signup">Crea una</a>. Es la misma cuenta que crea <code>/auth/register</code> en la API.',
    enterEmail: 'Escribe tu correo electrónico.',
    enterPassword: 'Escribe tu contraseña.',
    blocked: 'Demasiados intentos fallidos con este correo desde tu red. Espera {{wait}} y vuelve a intentarlo.',
    wrongCredentials_one:
      'El correo o la contraseña no son correctos. Queda {{count}} intento antes de que el acceso se pause durante {{pause}}.',
    wrongCredentials_other:
      'El correo o la contraseña no son correctos. Quedan {{count}} intentos antes de que el acceso se pause durante {{pause}}.',
  },
  signUp: {
    title: 'Crear una cuenta',
    lead: 'Una sola cuenta para el panel y la API. Recibes una clave API al momento, en la página siguiente.',
    name: 'Tu nombre o empresa',
    passwordHint: 'Al menos 12 caracteres.',
    repeat: 'Repite la contraseña',
    submit: 'Crear cuenta',
    haveAccount: '¿Ya tienes cuenta? <a href="/login">Inicia sesión</a>.',
    mismatch: 'Las dos contraseñas no coinciden. Escribe la misma contraseña en los dos campos.',
    emailTaken: 'Ya existe una cuenta con este correo. Inicia sesión o usa otro correo.',
    welcomeTitle: 'Cuenta creada',
    welcome: 'Te damos la bienvenida, {{name}}',
    ready: 'Tu cuenta está lista, con el plan <strong>{{plan}}</strong> ({{quota}} facturas al mes).',
    nextSteps: 'Próximos pasos',
    stepTaxpayer: '<a href="/app/taxpayers/new">Añade un contribuyente</a>: la empresa o persona cuyas facturas registras.',
    stepSystem: '<a href="/app/systems/new">Añade tu programa de facturación</a> como sistema informático.',
    stepInvoices: 'Registra facturas con <code>POST /api/v1/invoices</code> y síguelas en <a href="/app/invoices">Facturas</a>.',
  },
} as const;

/** The same texts in English. */
export const enSignIn: Widen<typeof esSignIn> = {
  signIn: {
    title: 'Sign in',
    email: 'Email',
    password: 'Password',
    submit: 'Sign in',
    noAccount: 'No account yet? <a href="/signup">Create one</a>. It is the same account the API\'s <code>/auth/register</code> creates.',
    enterEmail: 'Enter your email address.',
    enterPassword: 'Enter your password.',
    blocked: 'Too many failed sign-in attempts for this email from your network. Wait {{wait}} and try again.',
    wrongCredentials_one: 'The email or password is not right. {{count}} attempt left before sign-in is paused for {{pause}}.',
    wrongCredentials_other: 'The email or password is not right. {{count}} attempts left before sign-in is paused for {{pause}}.',
  },
  signUp: {
    title: 'Create an account',
    lead: 'One account for the dashboard and the API. You get an API key at once, on the next page.',
    name: 'Your name or company',
    passwordHint: 'At least 12 characters.',
    repeat: 'Repeat the password',
    submit: 'Create account',
    haveAccount: 'Already have an account? <a href="/login">Sign in</a>.',
    mismatch: 'The two passwords do not match. Type the same password in both fields.',
    emailTaken: 'An account with this email already exists. Sign in instead, or use another email.',
    welcomeTitle: 'Account created',
    welcome: 'Welcome, {{name}}',
    ready: 'Your account is ready, on the <strong>{{plan}}</strong> plan ({{quota}} invoices a month).',
    nextSteps: 'Next steps',
    stepTaxpayer: '<a href="/app/taxpayers/new">Add a taxpayer</a>: the company or person whose invoices you register.',
    stepSystem: '<a href="/app/systems/new">Add your billing software</a> as a computer system.',
    stepInvoices: 'Register invoices with <code>POST /api/v1/invoices</code>; follow them under <a href="/app/invoices">Invoices</a>.',
  },
};
