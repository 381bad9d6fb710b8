/**
 * How a script's failure reads: one line that says what happened and where (the script's own line
 * and column), and what to do, from the error QuickJS gives.
 */
import { LINES_BEFORE, SCRIPT_FILE } from './guest.js';
import type { GuestLimits, ScriptEnd } from './protocol.js';

type Failure = Extract<ScriptEnd, { ok: false }>;

/** Type annotations, interfaces, `as` casts: TypeScript, which the guest does not read. */
const TYPESCRIPT =
  /(?:\b(?:const|let|var)\s+\w+\s*:\s*[\w[\]<>{}| ]+\s*=|\(\s*\w+\s*:\s*\w|\)\s*:\s*(?:Promise|string|number|boolean|void|any|unknown)\b|\binterface\s+\w+|\btype\s+\w+\s*=|\bas\s+(?:const|string|number|any|unknown)\b)/;

/**
 * "line 3, column 7" of the script, from the first stack frame in it; "the end of the script" past
 * its last line, where the wrapper's own closing (guest.ts) met what the script left open.
 */
function placeOf(stack: unknown, code: string): string | undefined {
  if (typeof stack !== 'string') return undefined;
  const frame = new RegExp(`${SCRIPT_FILE.replace('.', '\\.')}:(\\d+)(?::(\\d+))?`).exec(stack);
  if (!frame) return undefined;
  const line = Number(frame[1]) - LINES_BEFORE;
  if (line < 1) return undefined;
  if (line > code.split('\n').length) return END;
  return frame[2] === undefined ? `line ${line}` : `line ${line}, column ${frame[2]}`;
}

const END = 'the end of the script';

/**
 * The failure a dumped guest error is: `parsing` when the script's code was being read, `returning`
 * when its return value was being made JSON.
 */
export function guestError(
  dumped: unknown,
  code: string,
  limits: GuestLimits,
  stage?: 'parsing' | 'returning',
): Failure {
  // Out of memory, QuickJS may have no room left to make an error of: it throws nothing readable.
  // Past the deadline, reading what was thrown was interrupted (a getter that never ends).
  const nothing = dumped === '' || dumped === null || dumped === undefined;
  const lost = Date.now() > limits.deadline ? 'interrupted' : 'out of memory';
  const thrown = nothing ? { name: 'InternalError', message: lost } : dumped;
  const error = (thrown && typeof thrown === 'object' ? thrown : { message: String(thrown) }) as {
    name?: unknown;
    message?: unknown;
    stack?: unknown;
  };
  // One of QuickJS's own ends that crossed back from a call the runner made into the guest comes
  // as a plain Error that names it ("InternalError: interrupted").
  const [, ownEnd] = /^InternalError: (.*)$/.exec(String(error.message)) ?? [];
  const name = ownEnd !== undefined ? 'InternalError' : typeof error.name === 'string' ? error.name : 'Error';
  const message = ownEnd ?? (typeof error.message === 'string' ? error.message : String(thrown));
  const place = placeOf(error.stack, code);
  const at = place ? ` at ${place}` : '';
  if (name === 'InternalError' && message === 'interrupted') {
    return {
      ok: false,
      failure: 'timeout',
      message: `The script was stopped at its deadline${at} (SVC_SCRIPT_TIMEOUT_MS): it ran too long, or never ended.`,
    };
  }
  if (name === 'InternalError' && message === 'out of memory') {
    return {
      ok: false,
      failure: 'memory',
      message: `The script ran out of memory${at} (${limits.memoryBytes / 1024 / 1024} MB, SVC_SCRIPT_MEMORY_MB): hold less at once, or ask the tools for fewer rows.`,
    };
  }
  if (name === 'InternalError' && message === 'stack overflow') {
    return {
      ok: false,
      failure: 'stack',
      message: `The script's stack overflowed${at} (${limits.stackBytes / 1024} KB): recursion too deep; use a loop.`,
    };
  }
  if (stage === 'parsing' && name === 'SyntaxError') {
    const typescript = TYPESCRIPT.test(code)
      ? ' TypeScript is not taken: write plain JavaScript, without type annotations.'
      : '';
    // What QuickJS says there is of the wrapper's closing, which the script does not have.
    const said =
      place === END
        ? 'something it opens is not closed (a bracket, a brace, a string or an expression)'
        : message;
    return { ok: false, failure: 'syntax', message: `SyntaxError${at}: ${said}.${typescript}` };
  }
  if (stage === 'returning' && place === undefined) {
    return {
      ok: false,
      failure: 'error',
      message: `The script's return value could not be made JSON: ${name}: ${message}. Return plain data: no cycles, and a BigInt as a string (String(n)).`,
    };
  }
  return { ok: false, failure: 'error', message: `The script failed${at}: ${name}: ${message}` };
}
