/**
 * What a script sees besides the language itself, defined in the guest before its code: `tools`,
 * whose every property is a function calling that tool (its whole data, or an Error with the
 * tool's own refusal); `query(sql)`; and `console.log`. Each crosses to the host as JSON text
 * through three functions the runner gives (`__call`, `__query`, `__log`), which the prelude hides.
 */

/** The prelude, evaluated before the script in the same context. */
export const PRELUDE = `
(() => {
  const call = __call, ask = __query, write = __log;
  delete globalThis.__call; delete globalThis.__query; delete globalThis.__log;
  const text = (value) => {
    if (typeof value === 'string') return value;
    try { const json = JSON.stringify(value); return json === undefined ? String(value) : json; }
    catch { return String(value); }
  };
  const tools = new Proxy({}, {
    get(_, name) {
      if (typeof name !== 'string' || name === 'then') return undefined;
      return (args) => call(name, JSON.stringify(args === undefined ? {} : args)).then(JSON.parse);
    },
  });
  const query = (sql) => ask(String(sql)).then(JSON.parse);
  const log = (...parts) => write(parts.map(text).join(' '));
  const console = { log, info: log, warn: log, error: log, debug: log };
  Object.defineProperties(globalThis, {
    tools: { value: tools, enumerable: true },
    query: { value: query, enumerable: true },
    console: { value: console, enumerable: true },
  });
})();
`;

/** The file name errors name; the script's first line is line 1 of it. */
export const SCRIPT_FILE = 'script.js';

/**
 * The script as the guest runs it: the body of an async function, its return value as JSON text.
 * On one line before the code, so that the code's lines keep their numbers.
 */
export function wrapped(code: string): string {
  return `(async () => {${'\n'}${code}${'\n'}})().then((value) => JSON.stringify(value === undefined ? null : value))`;
}

/** The lines the wrapper adds before the code. */
export const LINES_BEFORE = 1;
