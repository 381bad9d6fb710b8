/**
 * How deep arrays and objects nest in a value from outside (a message, a script's return value):
 * what then walks it (schemas, JSON.stringify, the answer's text) is bounded in depth, and the
 * check itself walks without recursion.
 */

/** Deepest nesting of arrays and objects taken: far past any message or result a tool makes. */
export const MAX_NESTING = 64;

/** Whether `value` nests arrays and objects more than `limit` deep. */
export function nestedDeeperThan(value: unknown, limit = MAX_NESTING): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (item === null || typeof item !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}
