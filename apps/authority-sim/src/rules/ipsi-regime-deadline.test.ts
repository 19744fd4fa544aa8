import { parseRegFactuReply } from '@vf/xml';
import { altaTree, lineTree, regFactuXml } from '../testing/raw-records';
import { httpsCall, startTestSimulator, type TestSimulator } from '../testing/test-simulator';

// Validaciones y errores v1.2.2 §15.6: an IPSI line whose ClaveRegimen is missing or outside the IPSI list is stored
// with 2009 until 31-12-2026 and refused from 2027-01-01, judged by the authority's clock when the record arrives.

const TAXPAYER = '89890001K';
let t: TestSimulator;

beforeAll(async () => {
  t = await startTestSimulator({ taxpayerNifs: [TAXPAYER], behaviour: { waitSeconds: 0 } });
});
afterAll(() => t.close());

let counter = 0;
/** The answer to one IPSI record generated at `at`, with the simulator's clock set to `at`. */
async function answerAt(at: string, regime: string | undefined): Promise<[string, number | undefined]> {
  const now = new Date(at);
  t.sim.configure({ clockOffsetSeconds: Math.round((now.getTime() - Date.now()) / 1000) });
  counter += 1;
  const alta = altaTree(
    TAXPAYER,
    `IPSI-${counter}`,
    {
      Desglose: { DetalleDesglose: [lineTree({ Impuesto: '02', ClaveRegimen: regime, TipoImpositivo: '4', CuotaRepercutida: '4.00' })] },
      CuotaTotal: '4.00',
      ImporteTotal: '104.00',
    },
    { installation: `IPSI-${counter}`, now },
  );
  const reply = await httpsCall(t.sim.url, { ca: t.ca, client: t.platform, body: regFactuXml({ nif: TAXPAYER }, [{ alta }]) });
  const parsed = parseRegFactuReply(reply.body);
  if (parsed.kind !== 'response') throw new Error(`expected lines, got ${parsed.message}`);
  return [parsed.lines[0].state, parsed.lines[0].errorCode];
}

it('stores an IPSI line with a regime key outside the IPSI list with 2009 on 31-12-2026 and refuses it with 1246 on 01-01-2027', async () => {
  expect(await answerAt('2026-12-31T23:00:00+01:00', '17')).toEqual(['AceptadoConErrores', 2009]);
  expect(await answerAt('2027-01-01T00:30:00+01:00', '17')).toEqual(['Incorrecto', 1246]);
});

it('stores an IPSI line without regime key with 2009 until the end of 2026 and refuses it with 1245 from 2027', async () => {
  expect(await answerAt('2026-12-31T23:00:00+01:00', undefined)).toEqual(['AceptadoConErrores', 2009]);
  expect(await answerAt('2027-01-01T00:30:00+01:00', undefined)).toEqual(['Incorrecto', 1245]);
});

it('takes an IPSI line with a key of the IPSI list on both sides of the date', async () => {
  expect(await answerAt('2026-12-31T23:00:00+01:00', '19')).toEqual(['Correcto', undefined]);
  expect(await answerAt('2027-01-01T00:30:00+01:00', '19')).toEqual(['Correcto', undefined]);
});
