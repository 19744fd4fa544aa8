import { generationTime } from './plan-registrations';

describe('generationTime', () => {
  it('is now, truncated to the second, in Madrid time', () => {
    expect(generationTime(new Date('2025-01-01T18:20:30.999Z'), undefined)).toEqual({
      at: new Date('2025-01-01T18:20:30Z'),
      literal: '2025-01-01T19:20:30+01:00',
    });
  });

  it('never goes before the previous record: a clock that went back reuses the previous timestamp', () => {
    const previous = { generatedAt: new Date('2025-07-01T10:00:05Z'), generatedAtLiteral: '2025-07-01T12:00:05+02:00' };
    expect(generationTime(new Date('2025-07-01T10:00:01Z'), previous)).toEqual({
      at: previous.generatedAt,
      literal: previous.generatedAtLiteral,
    });
    expect(generationTime(new Date('2025-07-01T10:00:05.700Z'), previous).literal).toBe('2025-07-01T12:00:05+02:00');
    expect(generationTime(new Date('2025-07-01T10:00:09Z'), previous).literal).toBe('2025-07-01T12:00:09+02:00');
  });
});
