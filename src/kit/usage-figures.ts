/**
 * The credit guard's figures as the tools give them: for a key beside the service's own (key info),
 * and in full (get_credit_usage, svc://credits), with a signed-in person's and, for an admin,
 * everyone's.
 */
import { z } from 'zod';
import { CREDIT_WINDOWS } from './credits.js';

/** The guard's figures for this key, next to the service's (see get_credit_usage). */
export const guardFigures = z.object({
  window: z.enum(CREDIT_WINDOWS),
  budget: z.number().nullable().describe('Credits per window; null: no budget'),
  spent: z.number(),
  left: z.number().nullable(),
  resets_at: z.string().nullable(),
});

/** A tool's: its calls the cache did not answer (sent, or free), their credits, and its cache hits. */
const toolFigures = z.object({ calls: z.number(), credits: z.number(), cache_hits: z.number() });

/** A signed-in person's figures in their window; budget and left are null when they have no budget. */
const personFigures = z.object({
  window: z.enum(CREDIT_WINDOWS),
  budget: z.number().nullable(),
  spent: z.number(),
  reserved: z.number(),
  left: z.number().nullable(),
});

/** All the guard's figures for one account: get_credit_usage's answer, and svc://credits. */
export const creditUsageFigures = guardFigures.extend({
  reserved: z.number().describe('Held by calls in flight'),
  max_credits_per_call: z.number(),
  by_tool: z.record(z.string(), toolFigures),
  cache_hits: z.number(),
  credits_saved: z.number(),
  ledger: z.string(),
  problem: z.string().optional(),
  you: personFigures.optional().describe('Sign-in: yours'),
  people: z
    .array(personFigures.pick({ spent: true, left: true }).extend({ person: z.string() }))
    .optional()
    .describe("Admin scope: everyone's"),
});
export type CreditUsageFigures = z.output<typeof creditUsageFigures>;
