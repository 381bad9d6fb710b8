/**
 * oidc-provider keeps each of its requests' context in an AsyncLocalStorage, which stays enabled
 * once entered: on Node 20 and 22 every promise of the process then pays for its hooks, tool calls
 * included (tools/bench/sign-in.mjs). It is switched off whenever none of the provider's requests
 * is in flight, and the provider's next request enters it again. The store is the provider's own
 * file, not a public export: docs/decisions/015 says why, and test/dependencies/ fails when it moves.
 */
import als from 'oidc-provider/lib/helpers/als.js';

let inFlight = 0;

/** `work` (one of the provider's requests), with its context switched off when no other is under way. */
export async function providerRequest<T>(work: () => Promise<T>): Promise<T> {
  inFlight++;
  try {
    return await work();
  } finally {
    inFlight--;
    if (inFlight === 0) als.disable();
  }
}
