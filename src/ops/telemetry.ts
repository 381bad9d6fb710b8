/**
 * OpenTelemetry traces, following the semantic conventions for MCP: a server span per request
 * (`tools/call get_fear_and_greed_latest`, with `mcp.method.name`, `gen_ai.tool.name`,
 * `jsonrpc.request.id`) continuing the trace a client sends in `_meta` (`traceparent`,
 * `tracestate`), and child spans for the cache, the guard's decision and the upstream request
 * (which carries a W3C `traceparent` to the service), each with its figures. Off unless the
 * standard exporter settings are given (OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT; OTEL_SDK_DISABLED=true turns it off); the SDK is loaded only
 * then, so a server without traces neither starts slower nor holds it in memory.
 */
import type { Attributes, Span } from '@opentelemetry/api';
import { VERSION } from '../version.js';

export type SpanAttributes = Record<string, string | number | boolean | undefined>;

/** Runs `work` in a child span of the current one when traces are on, else as it is. */
export function traced<T>(
  traces: Traces | undefined,
  name: string,
  attributes: SpanAttributes,
  work: (span?: Span) => Promise<T>,
): Promise<T> {
  return traces ? traces.step(name, attributes, work) : work();
}

export interface Traces {
  /** `work` in a server span for an MCP request, under the trace the client's `_meta` names. */
  request<T>(
    name: string,
    attributes: SpanAttributes,
    meta: Record<string, unknown> | undefined,
    work: (span: Span) => Promise<T>,
  ): Promise<T>;
  /** `work` in a child span of the current one. */
  step<T>(name: string, attributes: SpanAttributes, work: (span: Span) => Promise<T>): Promise<T>;
  /** The current span as a W3C `traceparent`, for the upstream request. */
  traceparent(): string | undefined;
  /** Send what is still waiting; the process is stopping. */
  shutdown(): Promise<void>;
}

/** Whether the standard settings ask for traces. */
export function tracesWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.toLowerCase() === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

export async function openTraces(env: NodeJS.ProcessEnv = process.env): Promise<Traces> {
  const [api, node, otlp, resources] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const provider = new node.NodeTracerProvider({
    resource: resources.resourceFromAttributes({
      'service.name': env.OTEL_SERVICE_NAME || 'svc-mcp',
      'service.version': VERSION,
    }),
    // Batched (OTEL_BSP_* tune it): a span costs the call a few microseconds, never an export.
    spanProcessors: [new node.BatchSpanProcessor(new otlp.OTLPTraceExporter())],
  });
  // The W3C trace context propagator and a context kept across awaits (AsyncLocalStorage).
  provider.register();
  const tracer = api.trace.getTracer('svc-mcp', VERSION);
  const clean = (attributes: SpanAttributes) =>
    Object.fromEntries(Object.entries(attributes).filter(([, v]) => v !== undefined)) as Attributes;

  async function within<T>(span: Span, work: (span: Span) => Promise<T>): Promise<T> {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: api.SpanStatusCode.ERROR, message: (error as Error)?.message });
      span.setAttribute('error.type', (error as Error)?.name ?? 'Error');
      throw error;
    } finally {
      span.end();
    }
  }

  return {
    request(name, attributes, meta, work) {
      const carrier = {
        traceparent: typeof meta?.traceparent === 'string' ? meta.traceparent : undefined,
        tracestate: typeof meta?.tracestate === 'string' ? meta.tracestate : undefined,
      };
      const parent = api.propagation.extract(api.ROOT_CONTEXT, carrier);
      const options = { kind: api.SpanKind.SERVER, attributes: clean(attributes) };
      return tracer.startActiveSpan(name, options, parent, (span) => within(span, work));
    },
    step(name, attributes, work) {
      return tracer.startActiveSpan(name, { attributes: clean(attributes) }, (span) => within(span, work));
    },
    traceparent() {
      const carrier: { traceparent?: string } = {};
      api.propagation.inject(api.context.active(), carrier);
      return carrier.traceparent;
    },
    shutdown: () => provider.shutdown(),
  };
}
