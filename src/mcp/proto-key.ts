/**
 * Arguments carrying a `__proto__` key, at their top or inside a parameter (estimate_cost's planned
 * calls), are refused like any unknown parameter or member. The SDK's request schema drops such a
 * key silently before a handler sees the arguments, so it is looked for here, on the message as it
 * was parsed (JSON.parse keeps `__proto__` as an own key): on stdio at the transport, on HTTP in
 * the request body.
 */
import type { CallToolResult, Transport } from '@modelcontextprotocol/server';

/** A tools/call whose arguments hold `__proto__`: its id, tool name and where the key is. */
export interface ProtoKeyCall {
  id: string | number;
  name: string;
  /** The path to the object holding the key, inside the arguments: [] at their top. */
  path: (string | number)[];
}

/** The path to the first object under `root` with an own `__proto__` key, walked without recursion. */
function protoKeyPath(root: unknown): (string | number)[] | undefined {
  const stack: [unknown, (string | number)[]][] = [[root, []]];
  while (stack.length > 0) {
    const [node, path] = stack.pop() as [unknown, (string | number)[]];
    if (node === null || typeof node !== 'object') continue;
    if (!Array.isArray(node) && Object.hasOwn(node, '__proto__')) return path;
    for (const [key, child] of Object.entries(node)) {
      stack.push([child, [...path, Array.isArray(node) ? Number(key) : key]]);
    }
  }
  return undefined;
}

/** The call, if `message` is a tools/call whose arguments hold `__proto__` anywhere. */
export function protoKeyCall(message: unknown): ProtoKeyCall | undefined {
  const call = message as {
    id?: unknown;
    method?: unknown;
    params?: { name?: unknown; arguments?: unknown };
  };
  if (call?.method !== 'tools/call' || (typeof call.id !== 'string' && typeof call.id !== 'number'))
    return undefined;
  const path = protoKeyPath(call.params?.arguments);
  if (path === undefined) return undefined;
  return { id: call.id, name: String(call.params?.name ?? ''), path };
}

/** On a transport: answer such a call with `refusal(call)`, without running it. */
export function refuseProtoKeys(
  transport: Transport,
  refusal: (call: ProtoKeyCall) => Promise<CallToolResult>,
): void {
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const call = protoKeyCall(message);
    if (!call) return receive?.(message, extra);
    void refusal(call).then((result) => transport.send({ jsonrpc: '2.0', id: call.id, result }));
  };
}
