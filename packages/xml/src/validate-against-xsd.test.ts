import { buildRegFactuRequest } from './build-reg-factu-request';
import { f1Record, SAMPLE_ISSUER } from './testing/sample-records';
import { validateAgainstXsd, validateEachAgainstXsd } from './validate-against-xsd';

const header = { obligado: SAMPLE_ISSUER };

describe('validateEachAgainstXsd', () => {
  it('gives each envelope its own verdict in one run: valid, invalid with its errors, not an envelope', async () => {
    const good = buildRegFactuRequest(header, [f1Record()]);
    const bad = buildRegFactuRequest(header, [f1Record({ issuerNif: '8989' })]);
    const [a, b, c, d] = await validateEachAgainstXsd([good, bad, '<x/>', good], 'request');
    expect(a).toEqual({ valid: true, errors: [] });
    expect(b.valid).toBe(false);
    expect(b.errors.join('\n')).toMatch(/IDEmisorFactura.*length of '4'/);
    expect(c).toEqual({ valid: false, errors: [expect.stringMatching(/not a SOAP 1\.1 envelope/)] });
    expect(d).toEqual({ valid: true, errors: [] });
    // The same verdicts as one envelope at a time.
    expect(await validateAgainstXsd(bad, 'request')).toEqual(b);
  });

  it('gives calls made at the same time their own verdicts', async () => {
    const good = buildRegFactuRequest(header, [f1Record()]);
    const bad = buildRegFactuRequest(header, [f1Record({ issuerNif: '8989' })]);
    const verdicts = await Promise.all(Array.from({ length: 20 }, (_, i) => validateAgainstXsd(i % 3 ? good : bad, 'request')));
    expect(verdicts.map((v) => v.valid)).toEqual(Array.from({ length: 20 }, (_, i) => i % 3 !== 0));
  });

  it("reports a text that is not XML as invalid, with the parser's reason", async () => {
    const [verdict] = await validateEachAgainstXsd(['<soapenv:Envelope'], 'request');
    expect(verdict.valid).toBe(false);
    expect(verdict.errors).not.toEqual([]);
  });

  it('answers an empty list without running libxml2', async () => {
    expect(await validateEachAgainstXsd([], 'response')).toEqual([]);
  });
});
