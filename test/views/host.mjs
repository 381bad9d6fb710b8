// @ts-check
/**
 * A host page for the views' tests, playing the host through the MCP Apps extension's own
 * AppBridge: it frames a view's HTML as hosts do (a sandboxed iframe), answers its handshake and
 * delivers a tool result. Bundled for the browser by the test.
 */
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

/** @type {any} */ (window).showView = (html, input, result) =>
  new Promise((resolve, reject) => {
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.style.cssText = 'width: 760px; height: 460px; border: 0';
    document.body.replaceChildren(frame);
    const bridge = new AppBridge(null, { name: 'svc-mcp test host', version: '1.0.0' }, {});
    bridge.oninitialized = () => {
      const sent = performance.now();
      bridge
        .sendToolInput({ arguments: input })
        .then(() => bridge.sendToolResult(result))
        .then(() => resolve(sent), reject);
    };
    // Listening before the view loads: it says hello as soon as its script runs.
    const transport = new PostMessageTransport(frame.contentWindow, frame.contentWindow);
    bridge.connect(transport).then(() => {
      frame.srcdoc = html;
    }, reject);
  });
