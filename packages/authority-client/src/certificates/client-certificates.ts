import { statSync, readFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import type { Agent } from 'node:http';
import { decryptSecret, readPkcs12, type Pkcs12Contents } from '@vf/certificates';
import type { SenderTaxpayer } from '@vf/db';
import { signingIdentity, type SigningIdentity } from '@vf/signing';
import { authorityAgent, type EgressProxy } from '../egress/authority-agent';

/** Nothing can be sent for this taxpayer until someone fixes its certificate (or the platform's). */
/** Why a certificate cannot be used, as the authority-codes module names it. */
export type CertificateProblem = 'certificate_missing' | 'certificate_unreadable' | 'certificate_expired' | 'certificate_not_yet_valid';

export class CertificateUnusableError extends Error {
  constructor(
    readonly problem: CertificateProblem,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'CertificateUnusableError';
  }
}

export interface ClientCertificate {
  /** 'taxpayer': its own PKCS#12; 'platform': social-collaborator mode with the platform's certificate. */
  mode: 'taxpayer' | 'platform';
  agent: Agent;
  subject: string;
  /** SHA-256 fingerprint: what a stop by the authority (4141) is kept under. */
  fingerprint: string;
  /** The same certificate's key, ready to sign records: a record is signed with the certificate it is sent with. */
  signer: SigningIdentity;
}

export interface ClientCertificateOptions {
  masterKey: Buffer;
  platformCertificate?: { path: string; password: string };
  /** Extra trust anchor for the server (the simulator's CA); absent = the system's roots. */
  serverCaPem?: string;
  /** The egress proxy requests go through (HTTPS_PROXY, NO_PROXY); absent: straight to the authority. */
  egressProxy?: EgressProxy;
  now?: () => Date;
}

interface CachedAgent extends ClientCertificate {
  notBefore: Date;
  notAfter: Date;
}

const MAX_CACHED = 500;

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Turns a taxpayer's stored PKCS#12 (or the platform's, when the taxpayer has none) into a mutual-TLS agent.
 * Agents are cached per certificate version; validity is checked on every use so an expiry is noticed.
 */
export class ClientCertificates {
  private readonly cache = new Map<string, CachedAgent>();
  private readonly now: () => Date;

  constructor(private readonly opts: ClientCertificateOptions) {
    this.now = opts.now ?? (() => new Date());
  }

  forTaxpayer(taxpayer: SenderTaxpayer): ClientCertificate {
    const own = taxpayer.certificateP12 && taxpayer.certificatePassword;
    return this.usable(own ? this.taxpayerAgent(taxpayer) : this.platformAgent());
  }

  /** The platform's own certificate (social-collaborator mode), for what it asks the authority on its own behalf. */
  forPlatform(): ClientCertificate {
    return this.usable(this.platformAgent('no platform certificate is configured for social-collaborator mode'));
  }

  close(): void {
    for (const entry of this.cache.values()) entry.agent.destroy();
    this.cache.clear();
  }

  private usable(entry: CachedAgent): ClientCertificate {
    const now = this.now();
    const whose = entry.mode === 'taxpayer' ? "the taxpayer's certificate" : "the platform's certificate";
    if (entry.notAfter.getTime() <= now.getTime()) {
      throw new CertificateUnusableError('certificate_expired', `${whose} (${entry.subject}) expired on ${entry.notAfter.toISOString()}`);
    }
    if (entry.notBefore.getTime() > now.getTime()) {
      throw new CertificateUnusableError(
        'certificate_not_yet_valid',
        `${whose} (${entry.subject}) is not valid before ${entry.notBefore.toISOString()}`,
      );
    }
    return { mode: entry.mode, agent: entry.agent, subject: entry.subject, fingerprint: entry.fingerprint, signer: entry.signer };
  }

  private taxpayerAgent(t: SenderTaxpayer): CachedAgent {
    return this.cached(`taxpayer:${t.id}:${t.updatedAt.getTime()}`, 'taxpayer', () => {
      try {
        const p12 = decryptSecret(this.opts.masterKey, t.certificateP12!);
        const password = decryptSecret(this.opts.masterKey, t.certificatePassword!).toString('utf8');
        return readPkcs12(p12, password);
      } catch (err) {
        throw new CertificateUnusableError('certificate_unreadable', `the taxpayer's certificate cannot be used: ${describe(err)}`, {
          cause: err,
        });
      }
    });
  }

  private platformAgent(
    missing = 'the taxpayer has no certificate and no platform certificate is configured for social-collaborator mode',
  ): CachedAgent {
    const platform = this.opts.platformCertificate;
    if (!platform) throw new CertificateUnusableError('certificate_missing', missing);
    let version: number;
    try {
      version = statSync(platform.path).mtimeMs;
    } catch (err) {
      throw new CertificateUnusableError('certificate_missing', `the platform's certificate file cannot be read: ${describe(err)}`, {
        cause: err,
      });
    }
    return this.cached(`platform:${platform.path}:${version}`, 'platform', () => {
      try {
        return readPkcs12(readFileSync(platform.path), platform.password);
      } catch (err) {
        throw new CertificateUnusableError('certificate_unreadable', `the platform's certificate cannot be used: ${describe(err)}`, {
          cause: err,
        });
      }
    });
  }

  private cached(key: string, mode: CachedAgent['mode'], open: () => Pkcs12Contents): CachedAgent {
    const hit = this.cache.get(key);
    if (hit) return hit;
    const contents = open();
    let signer: SigningIdentity;
    try {
      signer = signingIdentity(contents);
    } catch (err) {
      throw new CertificateUnusableError('certificate_unreadable', `the certificate cannot sign records: ${describe(err)}`, { cause: err });
    }
    const agent = authorityAgent(
      { key: contents.keyPem, cert: [contents.certPem, ...contents.chainPem].join('\n'), ca: this.opts.serverCaPem, keepAlive: true },
      this.opts.egressProxy,
    );
    const entry: CachedAgent = {
      mode,
      agent,
      signer,
      subject: contents.subject,
      fingerprint: new X509Certificate(contents.certPem).fingerprint256,
      notBefore: contents.notBefore,
      notAfter: contents.notAfter,
    };
    if (this.cache.size >= MAX_CACHED) {
      const [oldestKey, oldest] = this.cache.entries().next().value as [string, CachedAgent];
      oldest.agent.destroy();
      this.cache.delete(oldestKey);
    }
    this.cache.set(key, entry);
    return entry;
  }
}
