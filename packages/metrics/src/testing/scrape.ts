import parsePrometheusTextFormat from 'parse-prometheus-text-format';

export interface Sample {
  labels: Record<string, string>;
  value: number;
}

/**
 * A scrape parsed by a real Prometheus text-format parser, read by series name and labels. The parser folds the
 * series of a labelled histogram into one sample, so histograms are read a second time untyped: each of their
 * `_bucket`, `_sum` and `_count` series then comes out as plain samples with their labels.
 */
export class Scrape {
  private readonly types = new Map<string, string>();
  private readonly series = new Map<string, Sample[]>();

  constructor(readonly text: string) {
    const histograms: string[] = [];
    for (const family of parsePrometheusTextFormat(text)) {
      this.types.set(family.name, family.type);
      if (family.type === 'HISTOGRAM') histograms.push(family.name);
      else this.add(family.name, family.metrics);
    }
    const untyped = text
      .split('\n')
      .filter((line) => !histograms.some((name) => line === `# TYPE ${name} histogram`))
      .join('\n');
    for (const family of parsePrometheusTextFormat(untyped)) {
      if (histograms.some((name) => family.name.startsWith(`${name}_`))) this.add(family.name, family.metrics);
    }
  }

  private add(name: string, metrics: { labels?: Record<string, string>; value?: string }[]): void {
    const samples = this.series.get(name) ?? [];
    samples.push(...metrics.map((m) => ({ labels: m.labels ?? {}, value: Number(m.value) })));
    this.series.set(name, samples);
  }

  /** The family's type as the scrape declared it (COUNTER, GAUGE, HISTOGRAM, ...). */
  type(name: string): string | undefined {
    return this.types.get(name);
  }

  /** Every sample of a series whose labels include `labels` (a histogram's: `name_count`, `name_sum`, `name_bucket`). */
  samples(name: string, labels: Record<string, string> = {}): Sample[] {
    return (this.series.get(name) ?? []).filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  }

  /** The matching samples summed (0 when none: a counter not yet incremented has no series). */
  value(name: string, labels: Record<string, string> = {}): number {
    return this.samples(name, labels).reduce((sum, s) => sum + s.value, 0);
  }

  /** A histogram's observation count over the matching series. */
  count(name: string, labels: Record<string, string> = {}): number {
    return this.value(`${name}_count`, labels);
  }
}
