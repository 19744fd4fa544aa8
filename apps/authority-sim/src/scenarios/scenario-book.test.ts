import { CODE_CATALOGUE, SCENARIO_NAMES } from '@vf/core';
import { parseFaults } from '../faults/parse-fault';
import { recordHuella, ScenarioBook } from './scenario-book';

const NIF = '89890001K';
const send = (huella: string) => ({ operation: 'RegFactu' as const, nif: NIF, huella, invoiceNumber: 'F-1' });
const consulta = { operation: 'Consulta' as const, nif: NIF, invoiceNumber: 'F-1' };

test('every code some scenario takes becomes a fault the simulator takes at its level', () => {
  const book = new ScenarioBook();
  let n = 0;
  for (const code of CODE_CATALOGUE.keys()) {
    for (const name of SCENARIO_NAMES) {
      const plan = book.plan(`${name}:${code}`, send(String(n++)), 0);
      if (plan.faults.length === 0 || !('code' in plan.faults[0])) continue;
      expect(() => parseFaults(plan.faults)).not.toThrow();
    }
  }
});

test('a scenario acts on its record’s first send; a resend of the same record is answered as it is', () => {
  const book = new ScenarioBook();
  expect(book.plan('rejected:1100', send('A'), 0).faults).toEqual([{ kind: 'recordCode', code: 1100 }]);
  expect(book.plan('rejected:1100', send('A'), 1).faults).toEqual([]);
  expect(book.plan('message_refused:4104', send('B'), 2).faults).toEqual([{ kind: 'soapFault', code: 4104 }]);
  expect(book.plan('answered_after:2', send('C'), 3)).toMatchObject({ delayMs: 2000, faults: [] });
  expect(book.plan('duplicate_without_detail', send('D'), 4)).toMatchObject({
    storeFirst: true,
    faults: [{ kind: 'duplicateWithoutDetail' }],
  });
  expect(book.plan(undefined, send('E'), 5).faults).toEqual([]);
});

test('reply_lost loses the first answer and fails the first Consulta, then answers both', () => {
  const book = new ScenarioBook();
  expect(book.plan('reply_lost', send('A'), 0).faults).toEqual([{ kind: 'replyLost' }]);
  expect(book.plan('reply_lost', consulta, 1).faults).toEqual([{ kind: 'soapFault', code: 102 }]);
  expect(book.plan('reply_lost', send('A'), 2).faults).toEqual([]);
  expect(book.plan('reply_lost', consulta, 3).faults).toEqual([]);
});

test('authority_down answers every request of the taxpayer with a 503 for its seconds, from the record’s first send', () => {
  const book = new ScenarioBook();
  expect(book.plan('authority_down:3', send('A'), 1_000).faults).toEqual([{ kind: 'http503' }]);
  expect(book.plan('authority_down:3', send('A'), 3_999).faults).toEqual([{ kind: 'http503' }]);
  expect(book.plan('accepted', send('B'), 2_000).faults).toEqual([{ kind: 'http503' }]);
  expect(book.plan('accepted', { ...send('C'), nif: '89890002E' }, 2_000).faults).toEqual([]);
  expect(book.plan('authority_down:3', send('A'), 4_000).faults).toEqual([]);
});

test('the record’s huella is the last of the message, not its previous record’s', () => {
  const previous = 'A'.repeat(64);
  const own = 'B'.repeat(64);
  const xml = `<sum1:Encadenamiento><sum1:RegistroAnterior><sum1:Huella>${previous}</sum1:Huella></sum1:RegistroAnterior></sum1:Encadenamiento><sum1:Huella>${own}</sum1:Huella>`;
  expect(recordHuella(xml)).toBe(own);
});
