/**
 * Telemetry (OTEL_EXPORTER_OTLP_ENDPOINT): a server built in the test exports to an OTLP/HTTP
 * receiver in the test. A tool call from a real SDK client that sends a `traceparent` in `_meta`
 * makes a server span in that trace, with the MCP conventions' attributes, and child spans for the
 * cache, the guard's decision and the upstream request, which carries the trace to the service;
 * each call is timed into the `mcp.server.operation.duration` histogram.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { type FakeUpstream, startFakeUpstream } from '../helpers/fake-upstream.js';
import { startMcp } from '../helpers/in-process.js';
import { NOW } from '../helpers/now.js';
import { SECRET_KEY } from '../helpers/secret.js';
import type { Session } from '../helpers/session.js';
import { until } from '../helpers/until.js';
import { okStatus } from '../helpers/upstream-shapes.js';

interface Attribute {
  key: string;
  value: Record<string, unknown>;
}

interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Attribute[];
}

interface ExportedMetric {
  name: string;
  unit: string;
  histogram?: { dataPoints: { attributes: Attribute[]; count: number | string; sum: number }[] };
}

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';

let receiver: Server;
let spans: ExportedSpan[] = [];
const metrics: ExportedMetric[] = [];
let upstream: FakeUpstream;
let mcp: Session;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const sent = JSON.parse(body) as {
        resourceSpans?: { scopeSpans: { spans: ExportedSpan[] }[] }[];
        resourceMetrics?: { scopeMetrics: { metrics: ExportedMetric[] }[] }[];
      };
      for (const r of sent.resourceSpans ?? []) for (const s of r.scopeSpans) spans.push(...s.spans);
      for (const r of sent.resourceMetrics ?? []) for (const s of r.scopeMetrics) metrics.push(...s.metrics);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  upstream = await startFakeUpstream();
  upstream.reply('/v3/fear-and-greed/latest', {
    body: {
      status: { ...okStatus, credit_count: 1 },
      data: { value: 61, value_classification: 'Greed', update_time: NOW },
    },
  });
  // The OpenTelemetry settings are the process's environment, read by the SDK as well as by the server.
  const otel = {
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '50',
    OTEL_METRIC_EXPORT_INTERVAL: '100',
  };
  for (const [name, value] of Object.entries(otel)) vi.stubEnv(name, value);
  mcp = await startMcp({ SVC_API_KEY: SECRET_KEY, SVC_BASE_URL: upstream.url });
});
afterAll(async () => {
  await mcp?.close();
  vi.unstubAllEnvs();
  await upstream?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

const attribute = (of: { attributes: Attribute[] }, key: string) => {
  const value = of.attributes.find((a) => a.key === key)?.value;
  return value === undefined ? undefined : Object.values(value)[0];
};

describe('traces', () => {
  it("continue the client's trace, with the cache, the guard and the upstream request as children", async () => {
    spans = [];
    const result = await mcp.client.callTool({
      name: 'get_fear_and_greed_latest',
      arguments: {},
      _meta: { traceparent: `00-${TRACE_ID}-${CLIENT_SPAN}-01` },
    });
    expect(textOf(result as never)).toContain('Fear & Greed 61');
    await until(
      () =>
        spans.some((s) => s.name.startsWith('GET ')) && spans.some((s) => s.name.startsWith('tools/call')),
      10_000,
    );
    const server = spans.find((s) => s.name === 'tools/call get_fear_and_greed_latest') as ExportedSpan;
    expect(server.traceId).toBe(TRACE_ID);
    expect(server.parentSpanId).toBe(CLIENT_SPAN);
    expect(server.kind).toBe(2); // SERVER
    expect(attribute(server, 'mcp.method.name')).toBe('tools/call');
    expect(attribute(server, 'gen_ai.tool.name')).toBe('get_fear_and_greed_latest');
    const cache = spans.find((s) => s.name === 'svc.cache') as ExportedSpan;
    const guard = spans.find((s) => s.name === 'svc.guard') as ExportedSpan;
    const request = spans.find((s) => s.name === 'GET /v3/fear-and-greed/latest') as ExportedSpan;
    expect(cache.parentSpanId).toBe(server.spanId);
    expect(attribute(cache, 'svc.cache.hit')).toBe(false);
    expect(guard.parentSpanId).toBe(cache.spanId);
    expect(attribute(guard, 'svc.guard.decision')).toBe('reserved');
    expect(request.parentSpanId).toBe(cache.spanId);
    expect(attribute(request, 'svc.credits.charged')).toBe(1);
    // The service got the trace: the upstream request's own span as its parent.
    const sentTo = upstream.requests.at(-1)?.headers.traceparent;
    expect(sentTo).toBe(`00-${TRACE_ID}-${request.spanId}-01`);
  });

  it('a cache hit is a span with no request under it', async () => {
    spans = [];
    await mcp.client.callTool({ name: 'get_fear_and_greed_latest', arguments: {} });
    await until(() => spans.some((s) => s.name === 'svc.cache'), 10_000);
    expect(attribute(spans.find((s) => s.name === 'svc.cache') as ExportedSpan, 'svc.cache.hit')).toBe(true);
    expect(spans.some((s) => s.name.startsWith('GET '))).toBe(false);
  });

  it('each call is timed into mcp.server.operation.duration, by method and tool, with error.type on a failure', async () => {
    await mcp.client.callTool({ name: 'get_fear_and_greed_latest', arguments: {} });
    await mcp.client.callTool({ name: 'get_fear_and_greed_historical', arguments: { limit: -1 } });
    const points = () =>
      metrics
        .filter((m) => m.name === 'mcp.server.operation.duration')
        .flatMap((m) => (m.histogram?.dataPoints ?? []).map((p) => ({ ...p, unit: m.unit })));
    const toolOf = (p: { attributes: Attribute[] }) => attribute(p, 'gen_ai.tool.name');
    await until(() => points().some((p) => toolOf(p) === 'get_fear_and_greed_historical'), 10_000);
    const latest = points()
      .filter((p) => toolOf(p) === 'get_fear_and_greed_latest')
      .at(-1);
    const failed = points()
      .filter((p) => toolOf(p) === 'get_fear_and_greed_historical')
      .at(-1);
    expect(latest?.unit).toBe('s');
    expect(Number(latest?.count)).toBeGreaterThanOrEqual(3); // the three calls of this file
    expect(latest?.sum).toBeGreaterThan(0);
    expect(attribute(latest as never, 'mcp.method.name')).toBe('tools/call');
    expect(attribute(latest as never, 'error.type')).toBeUndefined();
    expect(attribute(failed as never, 'error.type')).toBe('tool_error');
    // The request's id would make a series per call: spans carry it, the metric does not.
    expect(points().every((p) => attribute(p, 'jsonrpc.request.id') === undefined)).toBe(true);
  });
});
