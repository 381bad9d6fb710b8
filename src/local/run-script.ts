/**
 * run_script: a short program over the tools, in place of dozens of calls whose answers would each
 * pass through the model. Its code calls `tools.NAME(args)` for a tool's whole data, `query(sql)`
 * over kept tables and `console.log`; every call inside is priced and guarded as a call is, and
 * together they may be charged at most max_credits, which the guard and the person's confirmation
 * see as the script's price. What it runs in: docs/decisions/017-scripts-in-quickjs.md.
 */
import { z } from 'zod';
import { counted, lines } from '../format/text.js';
import { defineLocalTool, type ToolContext, ToolRefusal } from '../kit/define.js';
import { MAX_NESTING, nestedDeeperThan } from '../kit/nesting.js';
import { paramsObject } from '../kit/params.js';

/** The longest script taken, in characters. */
export const MAX_CODE_CHARS = 20_000;

const input = paramsObject({
  code: z
    .string()
    .min(1)
    .max(MAX_CODE_CHARS)
    .optional()
    .describe('e.g. return (await tools.get_fear_and_greed_latest()).value'),
  max_credits: z.number().int().min(0).optional().describe('Default: the per-call limit'),
  declarations: z.array(z.string().min(1).max(80)).max(60).optional().describe('Tool names'),
});

const output = z.object({
  result: z.unknown().describe("The script's return value"),
  logs: z.array(z.string()),
  calls: z.number(),
  credits: z.number().describe("What the script's calls were charged"),
  declarations: z.string().optional(),
  note: z.string().optional(),
});

/** What a script's price is: the most its calls may spend, not what they will. */
const PRICE_NOTE =
  'At most: what its calls may spend (max_credits, else the per-call limit); a call answered from the cache or the kept tables costs nothing.';

/** The most the script may spend: max_credits, or the per-call limit within what is left. */
async function capOf(maxCredits: number | undefined, context: ToolContext): Promise<number> {
  if (maxCredits !== undefined) return maxCredits;
  const usage = await context.usage();
  return Math.min(usage.max_credits_per_call, usage.left ?? Number.POSITIVE_INFINITY);
}

export const runScriptTool = defineLocalTool({
  name: 'run_script',
  title: 'Run a script',
  toolset: 'analysis',
  inDefault: true,
  callsService: true,
  summary:
    'Many calls in one script (rankings, screens): an async JavaScript body calling tools.NAME(args) for whole data, query(sql), console.log; returns its value. Declarations: svc://scripts/declarations.',
  credits: "its calls', at most max_credits",
  input,
  output,
  async estimate({ code, max_credits }, context) {
    if (code === undefined) return { credits: 0, cached: false };
    return { credits: await capOf(max_credits, context), cached: false, note: PRICE_NOTE };
  },
  async data({ code, max_credits, declarations }, context) {
    const declared = declarations === undefined ? undefined : context.declarations(declarations);
    if (declared && declared.unknown.length > 0) {
      throw new ToolRefusal(
        `No tool a script can call is named ${declared.unknown.join(', ')}. Ask for declarations without names for them all.`,
      );
    }
    const empty = { result: null, logs: [], calls: 0, credits: 0 };
    if (code === undefined) {
      if (declared === undefined)
        throw new ToolRefusal('Give code (the script to run), or declarations (tool names).');
      return { ...empty, declarations: declared.text };
    }
    const answer = await context.script({ code, maxCredits: await capOf(max_credits, context) });
    const { logs, logsDropped, calls, credits } = answer;
    const logNote =
      logsDropped > 0 ? `${counted(logsDropped, 'log line')} past the bound not kept.` : undefined;
    if (!answer.ok) {
      throw new ToolRefusal(
        lines(
          answer.message,
          `${counted(calls, 'call')}, ${counted(credits, 'credit')}.`,
          logs.length > 0 && `Logs:\n${logs.join('\n')}`,
          logNote,
        ),
      );
    }
    const over = answer.json.length > answer.resultChars;
    const result: unknown = over ? null : JSON.parse(answer.json);
    const deep = nestedDeeperThan(result);
    const note = over
      ? `The return value is ${answer.json.length.toLocaleString('en-US')} characters of JSON, over ${answer.resultChars.toLocaleString('en-US')}: return less (the figures, or the rows wanted).`
      : deep
        ? `The return value nests arrays and objects more than ${MAX_NESTING} levels deep: return something flatter.`
        : logNote;
    return {
      result: deep ? null : result,
      logs,
      calls,
      credits,
      ...(declared ? { declarations: declared.text } : {}),
      ...(note ? { note } : {}),
    };
  },
  summarise(data) {
    if (data.declarations !== undefined && data.calls === 0 && data.result === null) return data.declarations;
    return lines(
      `Script ran: ${counted(data.calls, 'call')}, ${counted(data.credits, 'credit')}.`,
      `Result: ${JSON.stringify(data.result)}`,
      data.logs.length > 0 && `Logs:\n${data.logs.join('\n')}`,
      data.note,
    );
  },
});
