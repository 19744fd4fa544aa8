export interface StartedSession {
  /** Goes into the cookie and nowhere else: only its digest is stored. */
  token: string;
  id: string;
  csrfToken: string;
  createdAt: Date;
  expiresAt: Date;
}

export type SignInResult =
  | { outcome: 'signed_in'; session: StartedSession }
  | { outcome: 'wrong_credentials'; attemptsLeft: number; pauseSeconds: number }
  | { outcome: 'blocked'; retryAfterSeconds: number };
