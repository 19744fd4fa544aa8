import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Pkcs12Contents } from '@vf/certificates';
import { encryptSecret } from '@vf/certificates/encrypt-secret';
import type { TaxpayerCertificateColumns } from '@vf/db';
import { ApiError } from '../errors/api-error';
import type { ErrorCode } from '../errors/error-catalogue';
import { loadOnce } from '../shared/load-once';

export type CertificateSource = { kind: 'path'; path: string } | { kind: 'upload'; p12: Buffer };

// The PKCS#12 reader (node-forge, over a megabyte of live heap) loads with the first certificate a client sends.
const certificates = loadOnce(() => import('@vf/certificates'));

// PKCS#12 files are a few KB; anything this large is not one.
const MAX_P12_BYTES = 256 * 1024;

function refuse(code: ErrorCode, field: string, detail: string): ApiError {
  return new ApiError(code, detail, { errors: [{ field, code, message: detail }] });
}

function inside(dir: string, candidate: string): boolean {
  const rel = path.relative(dir, candidate);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

function errnoOf(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException)?.code;
}

export type CertificateIntake = ReturnType<typeof createCertificateIntake>;

/**
 * Turns a client's certificate (a path inside the certificate directory, or an upload) into the
 * encrypted columns a taxpayer stores, after proving it opens with the given password.
 */
export function createCertificateIntake(deps: { certificateDir: string; masterKey: Buffer; clock: () => Date }) {
  /** Real path of a file inside the certificate directory: no traversal, no symlink leading out, files only. */
  async function readFromDirectory(given: string): Promise<Buffer> {
    const notAllowed = (why: string) =>
      refuse(
        'certificate_path_not_allowed',
        'certificate_path',
        `certificate_path must name a file inside the certificate directory (${why}).`,
      );
    if (given.includes('\0')) throw notAllowed('invalid characters');
    const configured = path.resolve(deps.certificateDir);
    let dir: string;
    try {
      dir = await realpath(configured);
    } catch {
      throw notAllowed('the certificate directory is not available on this server');
    }
    // Checked before touching the file system, so nothing is revealed about files outside the directory.
    const candidate = path.resolve(configured, given);
    if (!inside(configured, candidate) && !inside(dir, candidate)) throw notAllowed('it points outside the directory');
    let real: string;
    try {
      real = await realpath(candidate);
    } catch (err) {
      if (errnoOf(err) === 'ENOENT' || errnoOf(err) === 'ENOTDIR') {
        throw refuse('certificate_unreadable', 'certificate_path', 'No file exists at certificate_path.');
      }
      throw notAllowed('it cannot be resolved');
    }
    if (!inside(dir, real)) throw notAllowed('it links outside the directory');
    const info = await stat(real);
    if (!info.isFile()) throw notAllowed('it is not a regular file');
    if (info.size > MAX_P12_BYTES)
      throw refuse('certificate_unreadable', 'certificate_path', 'The file is too large to be a PKCS#12 certificate.');
    try {
      return await readFile(real);
    } catch {
      throw refuse('certificate_unreadable', 'certificate_path', 'The certificate file cannot be read by the server.');
    }
  }

  async function open(p12: Buffer, password: string, field: string): Promise<Pkcs12Contents> {
    const { CertificateError, readPkcs12 } = await certificates();
    try {
      return readPkcs12(p12, password);
    } catch (err) {
      if (!(err instanceof CertificateError)) throw err;
      if (err.reason === 'bad_password') {
        throw refuse('certificate_password_invalid', 'certificate_password', 'The certificate password does not open this PKCS#12 file.');
      }
      if (err.reason === 'no_key')
        throw refuse('certificate_without_key', field, `${err.message}; a signing certificate needs its private key.`);
      throw refuse('certificate_unreadable', field, `The file is not a readable PKCS#12 certificate (${err.message}).`);
    }
  }

  return {
    async accept(source: CertificateSource, password: string): Promise<TaxpayerCertificateColumns> {
      const field = source.kind === 'path' ? 'certificate_path' : 'certificate_p12_base64';
      const p12 = source.kind === 'path' ? await readFromDirectory(source.path) : source.p12;
      if (p12.length > MAX_P12_BYTES) throw refuse('certificate_unreadable', field, 'The upload is too large to be a PKCS#12 certificate.');
      const contents = await open(p12, password, field);
      if (contents.notAfter.getTime() <= deps.clock().getTime()) {
        throw refuse('certificate_expired', field, `The certificate expired on ${contents.notAfter.toISOString()}; upload a valid one.`);
      }
      return {
        certificateSource: source.kind,
        certificatePath: source.kind === 'path' ? source.path : null,
        certificateP12: encryptSecret(deps.masterKey, p12),
        certificatePassword: encryptSecret(deps.masterKey, Buffer.from(password, 'utf8')),
        certificateSubject: contents.subject,
        certificateNif: contents.nif ?? null,
        certificateNotBefore: contents.notBefore,
        certificateNotAfter: contents.notAfter,
      };
    },
  };
}

/** Columns of a taxpayer without certificate: the platform signs as social collaborator. */
export const NO_CERTIFICATE: TaxpayerCertificateColumns = {
  certificateSource: null,
  certificatePath: null,
  certificateP12: null,
  certificatePassword: null,
  certificateSubject: null,
  certificateNif: null,
  certificateNotBefore: null,
  certificateNotAfter: null,
};
