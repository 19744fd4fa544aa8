import { readdirSync } from 'node:fs';
import { en } from './en';
import { es } from './es';

/** Every text of a catalogue with its key path (`detail.records.title` style). */
function texts(catalogue: object, prefix = ''): [string, unknown][] {
  return Object.entries(catalogue).flatMap(([key, value]): [string, unknown][] =>
    value !== null && typeof value === 'object' ? texts(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value]],
  );
}

test('both languages have the same keys, at every depth, and every text is worded', () => {
  const keys = (catalogue: object) =>
    texts(catalogue)
      .map(([path]) => path)
      .sort();
  expect(keys(en)).toEqual(keys(es));
  expect(keys(es).length).toBeGreaterThan(500);
  for (const catalogue of [es, en]) {
    expect(texts(catalogue).filter(([, text]) => typeof text !== 'string' || text.trim() === '')).toEqual([]);
  }
});

test("no two features' files define the same section: a later one would hide the earlier one's texts", async () => {
  const sections: string[] = [];
  for (const file of readdirSync(__dirname).filter((f) => /^[a-z-]+\.ts$/.test(f) && !['es.ts', 'en.ts', 'widen.ts'].includes(f))) {
    const feature = (await import(`./${file}`)) as Record<string, object>;
    for (const [name, texts] of Object.entries(feature)) if (name.startsWith('es')) sections.push(...Object.keys(texts));
  }
  expect(sections.length).toBe(new Set(sections).size);
  expect(sections.sort()).toEqual(Object.keys(es).sort());
});
