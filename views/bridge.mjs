// @ts-check
/**
 * The view's side of the MCP Apps extension (io.modelcontextprotocol/ui, protocol 2026-01-26),
 * spoken directly over postMessage: the `ui/initialize` handshake, the tool result the host
 * delivers, and the view's size. The extension's App class would bring the SDK's client and zod
 * (over 500 KB) into a view that may weigh 200 KB; these few messages are all a chart needs. The
 * tests drive each view through the extension's own AppBridge, so a mismatch fails them.
 */
const PROTOCOL_VERSION = '2026-01-26';
const INITIALIZE_TIMEOUT_MS = 10_000;

/** Connect to the host; `onResult` receives each tool result (a CallToolResult) it delivers. */
export function connect(name, onResult) {
  const pending = new Map();
  let nextId = 1;
  const send = (message) => window.parent.postMessage({ jsonrpc: '2.0', ...message }, '*');
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => reject(new Error(`${method}: no answer`)), INITIALIZE_TIMEOUT_MS);
      pending.set(id, (message) => {
        clearTimeout(timer);
        if (message.error) reject(new Error(message.error.message));
        else resolve(message.result);
      });
      send({ id, method, params });
    });

  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const message = event.data;
    if (message?.jsonrpc !== '2.0') return;
    if (message.method === undefined) {
      pending.get(message.id)?.(message);
      pending.delete(message.id);
    } else if (message.method === 'ui/notifications/tool-result') {
      onResult(message.params);
    } else if (message.id !== undefined) {
      // Requests this view has nothing for (teardown, ping) are answered, never left waiting.
      const known = message.method === 'ui/resource-teardown' || message.method === 'ping';
      send(
        known
          ? { id: message.id, result: {} }
          : { id: message.id, error: { code: -32601, message: `${message.method} is not handled` } },
      );
    }
  });

  return request('ui/initialize', {
    appInfo: { name, version: '1.0.0' },
    appCapabilities: {},
    protocolVersion: PROTOCOL_VERSION,
  }).then((result) => {
    send({ method: 'ui/notifications/initialized', params: {} });
    return result;
  });
}

/** Tell the host how tall the view wants to be. */
export function reportSize() {
  const { scrollWidth: width, scrollHeight: height } = document.documentElement;
  window.parent.postMessage(
    { jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { width, height } },
    '*',
  );
}

/** A timestamp (ISO 8601, or seconds) as the chart's time: whole seconds. */
export function toSeconds(time) {
  const ms = typeof time === 'number' ? time * 1000 : Date.parse(time);
  return Math.floor(ms / 1000);
}

/** Points sorted by time with one value per time (the chart requires both). */
export function byTime(points) {
  const seen = new Map();
  for (const point of points) if (Number.isFinite(point.time)) seen.set(point.time, point);
  return [...seen.values()].sort((a, b) => a.time - b.time);
}

/**
 * Text put into markup as the text it is: a token's symbol or a label is anyone's to write, and read
 * as tags it could run script in this frame, which speaks to the host.
 */
export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Show a message in place of a chart (no data, or a result this view does not draw). */
export function showMessage(text) {
  document.getElementById('message').textContent = text;
}
