/**
 * The HTTP transport's operational routes: /healthz (the process answers), /readyz (the services
 * can answer calls: the upstream service is reachable, the ledger can be written and, with Redis,
 * Redis answers; which check fails to anyone, and why only to a trusted caller) and /metrics
 * (the Prometheus text of the services' metrics).
 */
import type { ServerResponse } from 'node:http';
import type { Readiness, Services } from '../../services/index.js';
import { sendJson } from './respond.js';

/** A readiness result is reused this long, so probes in a burst ask the service once. */
const READY_REUSE_MS = 2_000;

export interface OperationalRoutes {
  healthz(res: ServerResponse): void;
  /** `detailed`: why each failing check fails (Redis's address, the error), for a trusted caller. */
  readyz(res: ServerResponse, detailed: boolean): Promise<void>;
  metrics(res: ServerResponse): Promise<void>;
}

export function operationalRoutes(services: Services): OperationalRoutes {
  let last: { at: number; readiness: Promise<Readiness> } | undefined;
  const readiness = () => {
    if (!last || performance.now() - last.at > READY_REUSE_MS) {
      last = { at: performance.now(), readiness: services.ready() };
    }
    return last.readiness;
  };
  return {
    healthz(res) {
      sendJson(res, 200, { status: 'ok' });
    },
    async readyz(res, detailed) {
      const { ok, checks } = await readiness();
      const shown = detailed
        ? checks
        : Object.fromEntries(
            Object.entries(checks).map(([name, check]) => [name, check === 'ok' ? 'ok' : 'failing']),
          );
      sendJson(res, ok ? 200 : 503, { status: ok ? 'ready' : 'not ready', checks: shown });
    },
    async metrics(res) {
      const metrics = services.metrics;
      if (!metrics) return sendJson(res, 404, { error: 'metrics are not kept by this process' });
      const text = await metrics.render();
      res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
      res.end(text);
    },
  };
}
