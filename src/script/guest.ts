/**
 * What a script sees besides the language itself, defined in the guest before its code: `tools`,
 * whose every property is a function calling that tool (its whole data, or an Error with the
 * tool's own refusal); `query(sql)`; and `console.log`. Each crosses to the host as JSON text
 * through three functions the runner gives (`__call`, `__query`, `__log`), which the prelude hides.
 * The prelude's value is the function that makes the script's return value JSON text: it holds
 * JSON's functions as they were before the script ran, so that what the host reads is JSON
 * whatever the script replaced.
 */

/** The prelude, evaluated before the script in the same context. */
export const PRELUDE = `
(() => {
  const call = __call, ask = __query, write = __log;
  const { stringify, parse } = JSON;
  delete globalThis.__call; delete globalThis.__query; delete globalThis.__log;
  const text = (value) => {
    if (typeof value === 'string') return value;
    try { const json = stringify(value); return json === undefined ? String(value) : json; }
    catch { return String(value); }
  };
  const tools = new Proxy({}, {
    get(_, name) {
      if (typeof name !== 'string' || name === 'then') return undefined;
      return (args) => call(name, stringify(args === undefined ? {} : args)).then(parse);
    },
  });
  const query = (sql) => ask(String(sql)).then(parse);
  const log = (...parts) => write(parts.map(text).join(' '));
  const console = { log, info: log, warn: log, error: log, debug: log };
  Object.defineProperties(globalThis, {
    tools: { value: tools, enumerable: true },
    query: { value: query, enumerable: true },
    console: { value: console, enumerable: true },
  });
  // A value JSON has no form for (undefined, a function, a symbol) is null, as JSON makes it in a list.
  return (value) => stringify(value) ?? 'null';
})();
`;

/** The file name errors name; the script's first line is line 1 of it. */
export const SCRIPT_FILE = 'script.js';

/**
 * The script as the guest runs it: the body of an async function, whose promise (always the
 * language's own, whatever the script replaces) settles with its return value. On one line before
 * the code, so that the code's lines keep their numbers.
 */
export function wrapped(code: string): string {
  return `(async () => {${'\n'}${code}${'\n'}})()`;
}

/** The lines the wrapper adds before the code. */
export const LINES_BEFORE = 1;
