/**
 * OpenTelemetry, following the semantic conventions for MCP: a server span per request
 * (`tools/call get_fear_and_greed_latest`, with `mcp.method.name`, `gen_ai.tool.name`,
 * `jsonrpc.request.id`) continuing the trace a client sends in `_meta` (`traceparent`,
 * `tracestate`), child spans for the cache, the guard's decision and the upstream request (which
 * carries a W3C `traceparent` to the service), each with its figures; and the
 * `mcp.server.operation.duration` histogram. Off unless the standard exporter settings are given
 * (OTEL_EXPORTER_OTLP_ENDPOINT, or the signal's own OTEL_EXPORTER_OTLP_TRACES_ENDPOINT /
 * OTEL_EXPORTER_OTLP_METRICS_ENDPOINT; OTEL_SDK_DISABLED=true, OTEL_TRACES_EXPORTER=none and
 * OTEL_METRICS_EXPORTER=none turn them off); the SDK is loaded only then, so a server without
 * telemetry neither starts slower nor holds it in memory.
 */
import type { Attributes, Histogram, Span } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import { VERSION } from '../version.js';

export type SpanAttributes = Record<string, string | number | boolean | undefined>;

/** Runs `work` in a child span of the current one when traces are on, else as it is. */
export function traced<T>(
  telemetry: Telemetry | undefined,
  name: string,
  attributes: SpanAttributes,
  work: (span?: Span) => Promise<T>,
): Promise<T> {
  return telemetry ? telemetry.step(name, attributes, work) : work();
}

/** How a request ended, for the span and the duration metric: undefined when it went well. */
export type ErrorType = string | undefined;

export interface Telemetry {
  /**
   * `work` as one MCP request: in a server span under the trace the client's `_meta` names, and
   * timed into `mcp.server.operation.duration`. `errorOf` reads a failure from its answer.
   */
  request<T>(
    name: string,
    attributes: SpanAttributes,
    meta: Record<string, unknown> | undefined,
    work: () => Promise<T>,
    errorOf: (answer: T) => ErrorType,
  ): Promise<T>;
  /** `work` in a child span of the current one. */
  step<T>(name: string, attributes: SpanAttributes, work: (span?: Span) => Promise<T>): Promise<T>;
  /** The current span as a W3C `traceparent`, for the upstream request. */
  traceparent(): string | undefined;
  /** Send what is still waiting; the process is stopping. */
  shutdown(): Promise<void>;
}

type Signal = 'TRACES' | 'METRICS';

/** Whether the standard settings ask for a signal. */
function wanted(signal: Signal, env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.toLowerCase() === 'true' || env[`OTEL_${signal}_EXPORTER`] === 'none')
    return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env[`OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`]);
}

/** Whether the standard settings ask for traces or metrics. */
export function telemetryWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return wanted('TRACES', env) || wanted('METRICS', env);
}

/** Longest a stopping server waits to send the spans and figures it still holds. */
const SHUTDOWN_WAIT_MS = 2_000;

const clean = (attributes: SpanAttributes) =>
  Object.fromEntries(Object.entries(attributes).filter(([, v]) => v !== undefined)) as Attributes;

/** The request's attributes the duration metric keeps: a bounded set (never the request's id). */
const METRIC_ATTRIBUTES = ['mcp.method.name', 'gen_ai.operation.name', 'gen_ai.tool.name'];
const forMetric = (attributes: Attributes) =>
  Object.fromEntries(METRIC_ATTRIBUTES.filter((k) => k in attributes).map((k) => [k, attributes[k]]));

export async function openTelemetry(env: NodeJS.ProcessEnv = process.env): Promise<Telemetry> {
  const [api, resources] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/resources'),
  ]);
  const resource = resources.resourceFromAttributes({
    'service.name': env.OTEL_SERVICE_NAME || 'svc-mcp',
    'service.version': VERSION,
  });
  const [tracing, metering] = await Promise.all([
    wanted('TRACES', env) ? openTracing(resource) : undefined,
    wanted('METRICS', env) ? openMetering(resource, env) : undefined,
  ]);
  const tracer = api.trace.getTracer('svc-mcp', VERSION);

  return {
    async request(name, attributes, meta, work, errorOf) {
      const started = performance.now();
      const cleaned = clean(attributes);
      let errorType: ErrorType;
      try {
        return await serverSpan(api, tracing ? tracer : undefined, name, cleaned, meta, async (span) => {
          const answer = await work();
          errorType = errorOf(answer);
          if (errorType) span?.setAttribute('error.type', errorType);
          return answer;
        });
      } catch (error) {
        errorType = (error as Error)?.name ?? 'Error';
        throw error;
      } finally {
        const seconds = (performance.now() - started) / 1000;
        const kept = forMetric(cleaned);
        metering?.duration.record(seconds, errorType ? { ...kept, 'error.type': errorType } : kept);
      }
    },
    step(name, attributes, work) {
      if (!tracing) return work();
      return tracer.startActiveSpan(name, { attributes: clean(attributes) }, (span) =>
        within(api, span, work),
      );
    },
    traceparent() {
      if (!tracing) return undefined;
      const carrier: { traceparent?: string } = {};
      api.propagation.inject(api.context.active(), carrier);
      return carrier.traceparent;
    },
    async shutdown() {
      // What the collector has not taken by then is dropped: a stop never waits on its retries.
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, SHUTDOWN_WAIT_MS).unref();
      });
      await Promise.race([Promise.allSettled([tracing?.shutdown(), metering?.shutdown()]), deadline]);
      clearTimeout(timer);
    },
  };
}

type Api = typeof import('@opentelemetry/api');
type Tracer = ReturnType<Api['trace']['getTracer']>;

/** `work` in `span` (when there is one), which records its failure and ends when it does. */
async function within<T>(api: Api, span: Span | undefined, work: (span?: Span) => Promise<T>): Promise<T> {
  try {
    return await work(span);
  } catch (error) {
    span?.recordException(error as Error);
    span?.setStatus({ code: api.SpanStatusCode.ERROR, message: (error as Error)?.message });
    span?.setAttribute('error.type', (error as Error)?.name ?? 'Error');
    throw error;
  } finally {
    span?.end();
  }
}

/** The server span, a child of the trace the client's `_meta` names, when traces are on; `work` in it either way. */
function serverSpan<T>(
  api: Api,
  tracer: Tracer | undefined,
  name: string,
  attributes: Attributes,
  meta: Record<string, unknown> | undefined,
  work: (span?: Span) => Promise<T>,
): Promise<T> {
  if (!tracer) return within(api, undefined, work);
  const carrier = {
    traceparent: typeof meta?.traceparent === 'string' ? meta.traceparent : undefined,
    tracestate: typeof meta?.tracestate === 'string' ? meta.tracestate : undefined,
  };
  const parent = api.propagation.extract(api.ROOT_CONTEXT, carrier);
  const options = { kind: api.SpanKind.SERVER, attributes };
  return tracer.startActiveSpan(name, options, parent, (span) => within(api, span, work));
}

async function openTracing(resource: Resource) {
  const [node, otlp] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
  ]);
  const provider = new node.NodeTracerProvider({
    resource,
    // Batched (OTEL_BSP_* tune it): a span costs the call a few microseconds, never an export.
    spanProcessors: [new node.BatchSpanProcessor(new otlp.OTLPTraceExporter())],
  });
  // The W3C trace context propagator and a context kept across awaits (AsyncLocalStorage).
  provider.register();
  return provider;
}

/** Buckets the MCP conventions advise for `mcp.server.operation.duration`, in seconds. */
const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

async function openMetering(
  resource: Resource,
  env: NodeJS.ProcessEnv,
): Promise<{ duration: Histogram; shutdown(): Promise<void> }> {
  const [sdk, otlp] = await Promise.all([
    import('@opentelemetry/sdk-metrics'),
    import('@opentelemetry/exporter-metrics-otlp-http'),
  ]);
  // Exported every OTEL_METRIC_EXPORT_INTERVAL ms (60 s unless set), in the background.
  const interval = Number(env.OTEL_METRIC_EXPORT_INTERVAL) || 60_000;
  const provider = new sdk.MeterProvider({
    resource,
    readers: [
      new sdk.PeriodicExportingMetricReader({
        exporter: new otlp.OTLPMetricExporter(),
        exportIntervalMillis: interval,
        exportTimeoutMillis: Math.min(30_000, interval),
      }),
    ],
  });
  const duration = provider.getMeter('svc-mcp', VERSION).createHistogram('mcp.server.operation.duration', {
    description: 'Duration of an MCP request as the server saw it',
    unit: 's',
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  });
  return { duration, shutdown: () => provider.shutdown() };
}
