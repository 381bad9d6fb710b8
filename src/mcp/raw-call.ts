/**
 * What is checked of a tools/call on the message as it was parsed, before the SDK reads it: the
 * SDK's request schema drops a `__proto__` key silently (JSON.parse keeps it as an own key), and
 * answers params that are not a name and an object of arguments with its validator's dump. Such a
 * call is refused here, in one line, like any refused call: on stdio at the transport, on HTTP in
 * the request body.
 */

/** A tools/call refused before the SDK reads it: its id, the tool name when it has one, and why. */
export type RawCallProblem = { id: string | number } & (
  | {
      kind: 'proto';
      name: string;
      /** The path to the object holding `__proto__`, inside the arguments: [] at their top. */
      path: (string | number)[];
    }
  | { kind: 'params'; message: string }
);

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

/** "null", "an array", "a string": what a value is, as a refusal names it. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** Why the params are not a tool name and an object of arguments, if they are not. */
function paramsProblem(params: unknown): string | undefined {
  const call = params as { name?: unknown; arguments?: unknown } | null;
  if (call === null || typeof call !== 'object' || Array.isArray(call) || typeof call.name !== 'string') {
    return 'A tools/call needs "name", the tool\'s name as a string (tools/list gives them), and "arguments", an object of its parameters or left out.';
  }
  const args = call.arguments;
  if (args === undefined || (typeof args === 'object' && args !== null && !Array.isArray(args)))
    return undefined;
  return `"arguments" must be an object of the tool's parameters, or left out; got ${kindOf(args)}.`;
}

/** The problem, if `message` is a tools/call the SDK must not read as it is. */
export function rawCallProblem(message: unknown): RawCallProblem | undefined {
  const call = message as { id?: unknown; method?: unknown; params?: unknown };
  if (call?.method !== 'tools/call' || (typeof call.id !== 'string' && typeof call.id !== 'number'))
    return undefined;
  const problem = paramsProblem(call.params);
  if (problem !== undefined) return { id: call.id, kind: 'params', message: problem };
  const { name, arguments: args } = call.params as { name: string; arguments?: unknown };
  const path = protoKeyPath(args);
  return path === undefined ? undefined : { id: call.id, kind: 'proto', name, path };
}
