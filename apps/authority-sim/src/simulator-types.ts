import type { RuleSetId } from './rules/rule-set';

/**
 * AEAT's two services, each with its own registry and flow-control timers (prewww1 and www1), and the simulator's own
 * service for sandbox scenario records (scenarios/scenario-book.ts), which is no service of the authority's.
 */
export const ENVIRONMENTS = ['sandbox', 'production', 'scenarios'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** What the simulator does; changeable at run time (configure / POST /__sim/configure). Faults are switched on apart (inject). */
export interface SimulatorBehaviour {
  /** TiempoEsperaEnvio returned in every response (AEAT starts at 60). */
  waitSeconds: number;
  /** Allowed distance of FechaHoraHusoGenRegistro from the simulator clock before 2004 (AEAT: 240 observed). */
  timestampToleranceSeconds: number;
  /** Added before answering each SOAP request. */
  latencyMs: number;
  /**
   * Validate every message against the XSDs (as AEAT does), and verify every record's signature (counted, never
   * refused: see signature-checks.ts). On by default; reading a message into a DOM to find its operation and
   * checking it costs about half a second of CPU for 1,000 records, and the signatures about two seconds more, so a
   * throughput benchmark of the service may turn it off to keep the simulator from being the bottleneck.
   */
  validateSchema: boolean;
  /** Which of the authority's published rule sets applies (see rules/rule-set.ts). */
  ruleSet: RuleSetId;
  /**
   * How far the simulated authority's clock is from the machine's, in seconds (negative: behind). It moves what the
   * authority calls now: 2004, the dates it judges, TimestampPresentacion and the HTTP Date header. Reset sets it to 0.
   */
  clockOffsetSeconds: number;
}

export interface SimulatorOptions {
  /** TLS server certificate and key (PEM) and the CA (PEM) that client certificates must chain to. */
  tls: { certPem: string; keyPem: string; caPem: string; anyClientCertificate?: boolean };
  /** NIFs allowed to present for any taxpayer (colaboradores sociales). */
  collaboratorNifs: string[];
  /** The census: NIFs (and foreign identifiers) that "do not exist" (4104 in a header, rejection as a recipient). */
  unknownNifs?: string[];
  behaviour?: Partial<SimulatorBehaviour>;
  host?: string;
  /** 0 = ephemeral. */
  port?: number;
  /** The VIES stand-in's plain-HTTP port, on the same host (0 = ephemeral). */
  viesPort?: number;
  /** Current time; tests move it. */
  now?: () => Date;
  log?: (line: string) => void;
}

export const DEFAULT_BEHAVIOUR: SimulatorBehaviour = {
  waitSeconds: 60,
  timestampToleranceSeconds: 240,
  latencyMs: 0,
  validateSchema: true,
  ruleSet: 'current',
  clockOffsetSeconds: 0,
};

export const ENDPOINT_PATH = '/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP';
/**
 * The service that takes a NO VERI*FACTU system's kept records on the authority's request (sfRequerimiento in
 * SistemaFacturacion.wsdl): the same operation, its own registry, under the same production prefix.
 */
export const REQUIREMENT_PATH = '/wlpl/TIKE-CONT/ws/SistemaFacturacion/RequerimientoSOAP';
/**
 * The validation service for NO VERI*FACTU records (test environment only, not in the WSDL). The authority's
 * description gives both addresses (v0.2: §7.1 and §8 the first, §1 the second); which one is live is not confirmed, so
 * both answer.
 */
export const VALIDATION_PATHS = [
  '/wlpl/TIKE-CONT/ws/SistemaFacturacion/ValRegistroNoVerifactu',
  '/wlpl/TIKE-CONT/ws/SistemaFacturacion/ValRegistroNoVF',
] as const;
/** The production service is the same endpoint under this prefix; the plain path is the sandbox (pre-production) one. */
export const PRODUCTION_PREFIX = '/production';
/** The service for sandbox scenario records: the same endpoint under this prefix, a registry of its own. */
export const SCENARIO_PREFIX = '/scenarios';
export const STATIC_PATH = '/static_files/common/internet/dep/aplicaciones/es/aeat/tikeV1.0/cont/ws';
