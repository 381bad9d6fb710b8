import { record } from './recorder.js';

/** Resolves once `condition` holds (checked every 10 ms); rejects after `timeoutMs`. */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Text a test keeps as it arrives (a process's stderr, a server's log lines), recorded for the key-leak scan. */
export interface KeptText {
  append(chunk: string): void;
  text(): string;
  /** Resolves with all the text so far once it matches, or fails after `timeoutMs`, saying what it was. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
}

/** Kept text, each chunk recorded under `recordAs`; `what` names it in a failed wait. */
export function keptText(recordAs: string, what: string): KeptText {
  let text = '';
  const waiters = new Set<() => void>();
  return {
    append(chunk) {
      text += chunk;
      record(recordAs, chunk);
      for (const wake of waiters) wake();
    },
    text: () => text,
    waitFor(pattern, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!pattern.test(text)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(text);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${what} did not match ${pattern} within ${timeoutMs} ms; it was:\n${text}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}
