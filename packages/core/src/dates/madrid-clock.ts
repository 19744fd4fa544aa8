// Spain's peninsular time: the zone the authority's dates and FechaHoraHusoGenRegistro refer to.
const MADRID = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Madrid',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

export interface WallClock {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
}

// The reading of the last second asked for: a registration asks for "now" several times, and Intl is not cheap.
let last: { second: number; clock: Readonly<WallClock> } | undefined;

/** The Madrid wall-clock reading of an instant, each part zero-padded. */
export function madridWallClock(instant: Date): Readonly<WallClock> {
  const second = Math.floor(instant.getTime() / 1000);
  if (last?.second === second) return last.clock;
  const parts: Record<string, string> = {};
  for (const part of MADRID.formatToParts(instant)) parts[part.type] = part.value;
  const clock = Object.freeze({
    year: parts.year,
    month: parts.month,
    day: parts.day,
    hour: parts.hour,
    minute: parts.minute,
    second: parts.second,
  });
  last = { second, clock };
  return clock;
}
