/**
 * Arguments carrying a `__proto__` key are refused like any unknown parameter. The SDK's request
 * schema drops such a key silently before a handler sees the arguments, so it is looked for here,
 * on the message as it was parsed (JSON.parse keeps `__proto__` as an own key): on stdio at the
 * transport, on HTTP in the request body.
 */
import type { CallToolResult, Transport } from '@modelcontextprotocol/server';

/** The id and tool name of a tools/call whose arguments hold `__proto__`, if `message` is one. */
export function protoKeyCall(message: unknown): { id: string | number; name: string } | undefined {
  const call = message as {
    id?: unknown;
    method?: unknown;
    params?: { name?: unknown; arguments?: unknown };
  };
  const args = call?.params?.arguments;
  if (call?.method !== 'tools/call' || (typeof call.id !== 'string' && typeof call.id !== 'number'))
    return undefined;
  if (args === null || typeof args !== 'object' || !Object.hasOwn(args, '__proto__')) return undefined;
  return { id: call.id, name: String(call.params?.name ?? '') };
}

/** On a transport: answer such a call with `refusal(toolName)`, without running it. */
export function refuseProtoKeys(
  transport: Transport,
  refusal: (tool: string) => Promise<CallToolResult>,
): void {
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const call = protoKeyCall(message);
    if (!call) return receive?.(message, extra);
    void refusal(call.name).then((result) => transport.send({ jsonrpc: '2.0', id: call.id, result }));
  };
}
