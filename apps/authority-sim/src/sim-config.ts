import Joi from 'joi';
import { RULE_SETS, type RuleSetId } from './rules/rule-set';

export interface SimConfig {
  host: string;
  port: number;
  /** The VIES stand-in's plain-HTTP port. */
  viesPort: number;
  certDir: string;
  /** Extra names in the server certificate it generates (SIM_SERVER_HOSTS): how other machines or containers reach it. */
  serverHosts: string[];
  collaboratorNifs?: string[];
  unknownNifs: string[];
  waitSeconds: number;
  timestampToleranceSeconds: number;
  latencyMs: number;
  validateSchema: boolean;
  /** Which of the authority's published rule sets the simulator applies. */
  ruleSet: RuleSetId;
  /**
   * Take a client certificate from any issuer (SIM_ANY_CLIENT_CERTIFICATE): beside a service in aeat mode, sandbox
   * scenario records come with the taxpayers' real certificates. The certificate's holder is still checked.
   */
  anyClientCertificate: boolean;
  /** pino level of the simulator's log. */
  logLevel: string;
}

const nifList = Joi.string().pattern(/^\s*[0-9A-Z]{9}(\s*,\s*[0-9A-Z]{9})*\s*$/);

const schema = Joi.object({
  SIM_HOST: Joi.string().default('127.0.0.1'),
  SIM_PORT: Joi.number().port().default(8443),
  SIM_VIES_PORT: Joi.number().port().default(8444),
  SIM_CERT_DIR: Joi.string().default('var/certs'),
  SIM_SERVER_HOSTS: Joi.string().pattern(/^[A-Za-z0-9.:-]+(,[A-Za-z0-9.:-]+)*$/),
  SIM_COLLABORATOR_NIFS: nifList,
  SIM_UNKNOWN_NIFS: nifList.allow(''),
  SIM_WAIT_SECONDS: Joi.number().integer().min(0).max(9999).default(60),
  SIM_TOLERANCE_SECONDS: Joi.number().integer().min(0).default(240),
  SIM_LATENCY_MS: Joi.number().integer().min(0).default(0),
  SIM_VALIDATE_SCHEMA: Joi.boolean().default(true),
  SIM_ANY_CLIENT_CERTIFICATE: Joi.boolean().default(false),
  SIM_RULE_SET: Joi.string()
    .valid(...RULE_SETS)
    .default('current'),
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
}).unknown(true);

const split = (list: string | undefined) =>
  list
    ? list
        .split(',')
        .map((nif) => nif.trim())
        .filter(Boolean)
    : undefined;

/** The simulator's environment, parsed once at start. */
export function loadSimConfig(env: NodeJS.ProcessEnv = process.env): SimConfig {
  const { value, error } = schema.validate(env, { abortEarly: false });
  if (error) throw new Error(`invalid simulator environment: ${error.message}`);
  return {
    host: value.SIM_HOST,
    port: value.SIM_PORT,
    viesPort: value.SIM_VIES_PORT,
    certDir: value.SIM_CERT_DIR,
    serverHosts: split(value.SIM_SERVER_HOSTS) ?? [],
    collaboratorNifs: split(value.SIM_COLLABORATOR_NIFS),
    unknownNifs: split(value.SIM_UNKNOWN_NIFS) ?? [],
    waitSeconds: value.SIM_WAIT_SECONDS,
    timestampToleranceSeconds: value.SIM_TOLERANCE_SECONDS,
    latencyMs: value.SIM_LATENCY_MS,
    validateSchema: value.SIM_VALIDATE_SCHEMA,
    anyClientCertificate: value.SIM_ANY_CLIENT_CERTIFICATE,
    ruleSet: value.SIM_RULE_SET,
    logLevel: value.LOG_LEVEL,
  };
}
