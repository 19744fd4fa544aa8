// Process entry of the VERI*FACTU authority SIMULATOR (never AEAT): npm run sim
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import forge from 'node-forge';
import { certificateNif } from '@vf/certificates';
import { TEST_CERT_FILES, writeTestCertificates } from '@vf/certificates/testing';
import { createSimulator } from './create-simulator';
import { createLogger, routeProcessOutput } from '@vf/logger';
import { loadSimConfig } from './sim-config';

function platformNif(certDir: string): string | undefined {
  const passwords = JSON.parse(readFileSync(join(certDir, TEST_CERT_FILES.passwords), 'utf8')) as Record<string, string>;
  const der = readFileSync(join(certDir, TEST_CERT_FILES.platform)).toString('binary');
  const p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(der), passwords[TEST_CERT_FILES.platform]);
  const bags = p12.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag] ?? [];
  return bags.map((bag) => (bag.cert ? certificateNif(bag.cert) : undefined)).find(Boolean);
}

async function main(): Promise<void> {
  const config = loadSimConfig();
  const logger = createLogger({ service: 'authority-sim', level: config.logLevel });
  routeProcessOutput(logger);
  const certDir = resolve(config.certDir);
  const certs = writeTestCertificates(certDir, { serverHosts: config.serverHosts });
  if (certs.written.length) logger.info({ certDir, files: certs.written }, 'SIMULATOR generated test certificates');
  const collaboratorNifs = config.collaboratorNifs ?? [platformNif(certDir)].filter((nif): nif is string => nif !== undefined);

  const sim = await createSimulator({
    tls: {
      certPem: readFileSync(join(certDir, TEST_CERT_FILES.simServer), 'utf8'),
      keyPem: readFileSync(join(certDir, TEST_CERT_FILES.simServerKey), 'utf8'),
      caPem: readFileSync(join(certDir, TEST_CERT_FILES.ca), 'utf8'),
      anyClientCertificate: config.anyClientCertificate,
    },
    host: config.host,
    port: config.port,
    viesPort: config.viesPort,
    collaboratorNifs,
    unknownNifs: config.unknownNifs,
    behaviour: {
      waitSeconds: config.waitSeconds,
      timestampToleranceSeconds: config.timestampToleranceSeconds,
      latencyMs: config.latencyMs,
      validateSchema: config.validateSchema,
      ruleSet: config.ruleSet,
    },
    log: (line) => logger.info(`SIMULATOR ${line}`),
  });

  console.log('='.repeat(78));
  console.log('  VERI*FACTU AUTHORITY SIMULATOR: this is NOT the AEAT. Nothing sent here is registered');
  console.log('  with the tax authority. Test certificates only.');
  console.log(`  SOAP endpoint: ${sim.url} (sandbox)`);
  console.log(`                 ${sim.productionUrl} (production)`);
  console.log(`                 ${sim.scenarioUrl} (sandbox scenarios)`);
  if (config.anyClientCertificate)
    console.log('  Client certificates: any (SIM_ANY_CLIENT_CERTIFICATE), for scenarios beside the real service');
  console.log(`  WSDL:          ${sim.wsdlUrl}`);
  console.log(`  Census check:  ${sim.censusUrl} (VNifV2; entries through POST /__sim/census)`);
  console.log(`  VIES stand-in: ${sim.viesUrl} (POST /check-vat-number: 100 valid, 200 invalid, 201-601 one fault each)`);
  console.log(`  CA for clients: ${join(certDir, TEST_CERT_FILES.ca)}`);
  console.log(`  Colaboradores sociales: ${collaboratorNifs.join(', ') || '(none)'}`);
  console.log(
    `  TiempoEsperaEnvio ${config.waitSeconds}s, timestamp tolerance ${config.timestampToleranceSeconds}s, rule set ${config.ruleSet}`,
  );
  console.log('  Faults and settings: POST /__sim/faults, /__sim/configure (see apps/authority-sim/README.md)');
  if (!config.validateSchema)
    console.log('  XSD validation OFF (SIM_VALIDATE_SCHEMA=false): messages are checked for well-formedness only');
  console.log('='.repeat(78));

  const stop = async (signal: string) => {
    console.log(`[SIMULATOR] ${signal}: closing`);
    await sim.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  console.error('[SIMULATOR] failed to start:', error);
  process.exit(1);
});
