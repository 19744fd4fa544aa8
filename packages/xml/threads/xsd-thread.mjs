// The body of the XSD validation thread (see validate-against-xsd.ts). Plain JavaScript, because libxml2-wasm is an
// ES module with top-level await, which neither CommonJS nor a test runner's module sandbox can load, while a
// thread started from this file is an ordinary Node.js realm.
import { Buffer } from 'node:buffer';
import { parentPort, workerData } from 'node:worker_threads';
import { XmlBufferInputProvider, XmlDocument, XmlElement, xmlRegisterInputProvider, XsdValidator } from 'libxml2-wasm';

/**
 * @type {{ schemas: Record<string, string>, soapNamespace: string }} The vendored schema texts by file name, as
 * includes name them, and the SOAP 1.1 envelope namespace.
 */
const { schemas, soapNamespace } = workerData;
xmlRegisterInputProvider(
  new XmlBufferInputProvider(Object.fromEntries(Object.entries(schemas).map(([name, text]) => [name, Buffer.from(text)]))),
);

/** Each main schema is compiled once, on first use, and kept: compiling costs far more than validating. */
const validators = new Map();

function validatorFor(main) {
  let validator = validators.get(main);
  if (!validator) {
    const schema = XmlDocument.fromString(schemas[main], { url: main });
    try {
      validator = XsdValidator.fromDoc(schema);
    } finally {
      schema.dispose();
    }
    validators.set(main, validator);
  }
  return validator;
}

function reasons(error) {
  const details = error.details?.map((d) => d.message.trim()).filter(Boolean);
  return details?.length ? details : [error.message.trim()];
}

function childElements(parent) {
  const out = [];
  for (let node = parent.firstChild; node; node = node.next) if (node instanceof XmlElement) out.push(node);
  return out;
}

/** The single element inside soapenv:Body, validated where it stands (the envelope's namespace declarations apply). */
function payloadOf(doc) {
  const root = doc.root;
  if (root.name !== 'Envelope' || root.namespaceUri !== soapNamespace) {
    throw new Error(`not a SOAP 1.1 envelope (root element ${root.prefix ? `${root.prefix}:` : ''}${root.name})`);
  }
  const body = childElements(root).find((e) => e.name === 'Body' && e.namespaceUri === soapNamespace);
  const payload = body ? childElements(body) : [];
  if (payload.length !== 1) throw new Error('the SOAP Body must hold exactly one element');
  return payload[0];
}

function verdict(validator, xml) {
  let doc;
  try {
    doc = XmlDocument.fromString(xml);
    validator.validate(payloadOf(doc));
    return { valid: true, errors: [] };
  } catch (error) {
    return { valid: false, errors: reasons(error) };
  } finally {
    doc?.dispose();
  }
}

parentPort.on('message', ({ id, main, envelopes }) => {
  try {
    const validator = validatorFor(main);
    parentPort.postMessage({ id, verdicts: envelopes.map((xml) => verdict(validator, xml)) });
  } catch (error) {
    parentPort.postMessage({ id, failure: `the schema ${main} could not be compiled: ${reasons(error).join('; ')}` });
  }
});
