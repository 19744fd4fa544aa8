/** An email and password, as sign-in and POST /auth/regenerate-key take them. */
export interface Credentials {
  email: string;
  password: string;
}
