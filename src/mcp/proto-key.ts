/**
 * Arguments carrying a `__proto__` key are refused like any unknown parameter. The SDK's request
 * schema drops such a key silently before a handler sees the arguments, so it is looked for here,
 * on the message as the transport parsed it (JSON.parse keeps `__proto__` as an own key).
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** Answer a tools/call whose arguments hold `__proto__` with `refusal(toolName)`, without running it. */
export function refuseProtoKeys(
  transport: Transport,
  refusal: (tool: string) => Promise<CallToolResult>,
): void {
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const call = message as {
      id?: string | number;
      method?: string;
      params?: { name?: unknown; arguments?: unknown };
    };
    const args = call.params?.arguments;
    if (
      call.method === 'tools/call' &&
      call.id !== undefined &&
      args !== null &&
      typeof args === 'object' &&
      Object.hasOwn(args, '__proto__')
    ) {
      const id = call.id;
      void refusal(String(call.params?.name ?? '')).then((result) =>
        transport.send({ jsonrpc: '2.0', id, result }),
      );
      return;
    }
    receive?.(message, extra);
  };
}
