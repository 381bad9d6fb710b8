/**
 * What a tool sees of scripts (ToolContext.script): a script to run over the tools, and how it
 * ended, as plain data: the script runner (src/script/) runs it, run_script words it.
 */

/** A script: the body of an async function, and the most its calls may be charged. */
export interface ScriptRun {
  code: string;
  maxCredits: number;
}

/** How a script ended, with what it logged, how many calls it made and what they were charged. */
export type ScriptAnswer = {
  logs: string[];
  /** Log lines past the bound, counted and not kept. */
  logsDropped: number;
  calls: number;
  credits: number;
  /** The most characters of JSON its return value may be in the answer (SVC_MAX_ANSWER_CHARS). */
  resultChars: number;
} & ({ ok: true; json: string } | { ok: false; message: string });
