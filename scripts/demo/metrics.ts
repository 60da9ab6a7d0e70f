/**
 * `npm start -- --metrics`: the client's OpenTelemetry metrics, collected in process by the
 * SDK's own MeterProvider and printed at the end of the run (in production, a Prometheus or OTLP
 * exporter reads the same instruments: see docs/telemetry.md).
 */
import { AggregationTemporality, MeterProvider, MetricReader, type DataPoint } from '@opentelemetry/sdk-metrics';

/** Collects when asked, cumulatively. */
class OnDemandReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

export function demoMetrics(): { meterProvider: MeterProvider; print: () => Promise<void> } {
  const reader = new OnDemandReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    meterProvider,
    async print() {
      const { resourceMetrics } = await reader.collect();
      console.log('\nMetrics (OpenTelemetry)');
      for (const metric of resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics)) {
        const { name, unit } = metric.descriptor;
        for (const point of metric.dataPoints as DataPoint<unknown>[]) {
          const attributes = Object.entries(point.attributes)
            .map(([key, value]) => `${key}=${String(value)}`)
            .join(' ');
          console.log(`  ${name}${attributes ? ` {${attributes}}` : ''} ${show(point.value, unit)}`);
        }
      }
      await meterProvider.shutdown();
    },
  };
}

/** A counter's value, or a histogram's count, sum and mean. */
function show(value: unknown, unit: string): string {
  if (typeof value === 'number') return `${value}${unit ? ` ${unit}` : ''}`;
  const { count, sum } = value as { count: number; sum?: number };
  const mean = sum === undefined || count === 0 ? '' : `, mean ${(sum / count).toFixed(3)} ${unit}`;
  return `count ${count}${sum === undefined ? '' : `, sum ${sum.toFixed(3)} ${unit}`}${mean}`;
}
