import { randomUUID } from 'node:crypto';
import type { Express } from 'express';
import request from 'supertest';

export type Agent = ReturnType<typeof request.agent>;

/** The CSRF token of the first form on a page. */
export function csrfTokenIn(page: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(page);
  if (!match) throw new Error('no CSRF field on the page');
  return match[1];
}

/** Loads a page, then posts a form from it with the page's CSRF token, like a browser would. */
export async function submitForm(agent: Agent, pagePath: string, action: string, fields: Record<string, string>) {
  const page = await agent.get(pagePath).expect(200);
  return agent
    .post(action)
    .type('form')
    .send({ _csrf: csrfTokenIn(page.text), ...fields });
}

/**
 * A browser session. Suites that check behaviour read the English pages (`Accept-Language: en`); the language tests
 * ask for Spanish, the default, or send no preference at all (`null`).
 */
export function browser(app: Express, language: string | null = 'en'): Agent {
  const agent = request.agent(app);
  if (language) agent.set('Accept-Language', language);
  return agent;
}

export async function signIn(app: Express, email: string, password: string, language: string | null = 'en'): Promise<Agent> {
  const agent = browser(app, language);
  await submitForm(agent, '/login', '/login', { email, password }).then((res) => {
    if (res.status !== 303) throw new Error(`sign-in failed with ${res.status}`);
  });
  return agent;
}

export interface DashboardAccount {
  agent: Agent;
  email: string;
  password: string;
  apiKey: string;
  auth: { Authorization: string };
}

/** Signs up through the dashboard's form: the account, its first API key and a signed-in browser. */
export async function signUp(app: Express, name = 'Gestoría Ejemplo', language: string | null = 'en'): Promise<DashboardAccount> {
  const agent = browser(app, language);
  const email = `${randomUUID()}@example.test`;
  const password = `pw-${randomUUID()}`;
  const res = await submitForm(agent, '/signup', '/signup', { name, email, password, password_confirmation: password });
  if (res.status !== 303 || res.headers.location !== '/app/welcome') throw new Error(`sign-up failed with ${res.status}`);
  const welcome = await agent.get('/app/welcome').expect(200);
  const apiKey = /data-testid="new-api-key">([^<]+)</.exec(welcome.text)?.[1];
  if (!apiKey) throw new Error('no API key on the sign-up page');
  return { agent, email, password, apiKey, auth: { Authorization: `Bearer ${apiKey}` } };
}
