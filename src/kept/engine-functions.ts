/**
 * Functions a query may call besides SQLite's own: the standard deviation and variance that other
 * SQL dialects have and SQLite does not, under the names a model writes (`stddev`, `stdev`,
 * `stddev_samp`, `stddev_pop`, `variance`, `var_samp`, `var_pop`), as aggregates and over windows.
 * Each group's state is three numbers in SQLite's own aggregate context (Welford's running mean and
 * sum of squared distances), so it is bounded and freed by SQLite however the query ends. NULL, and
 * text that is no number, are left out, as NULL is by avg().
 */
import type sqlite3InitModule from '@sqlite.org/sqlite-wasm';

type Sqlite3 = Awaited<ReturnType<typeof sqlite3InitModule>>;
type Db = InstanceType<Sqlite3['oo1']['DB']>;

/** The state's bytes: the count, the mean and the sum of squared distances from it, as doubles. */
const STATE_BYTES = 24;

/** A figure from a group's count and sum of squared distances; null when it has too few values. */
type Figure = (n: number, m2: number) => number | null;

const sampleVariance: Figure = (n, m2) => (n > 1 ? m2 / (n - 1) : null);
const populationVariance: Figure = (n, m2) => (n > 0 ? m2 / n : null);
const deviation =
  (variance: Figure): Figure =>
  (n, m2) => {
    const v = variance(n, m2);
    return v === null ? null : Math.sqrt(v);
  };

/** What each name gives. */
const FIGURES: Record<string, Figure> = {
  stddev: deviation(sampleVariance),
  stdev: deviation(sampleVariance),
  stddev_samp: deviation(sampleVariance),
  stddev_pop: deviation(populationVariance),
  variance: sampleVariance,
  var_samp: sampleVariance,
  var_pop: populationVariance,
};

/** A value as the figures count it: a finite number, or none. */
function numberOf(value: unknown): number | undefined {
  const n = typeof value === 'number' || typeof value === 'bigint' ? Number(value) : Number.NaN;
  if (Number.isFinite(n)) return n;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}

/**
 * The sum of squared distances as the figures read it: never below 0 (a window's removals round),
 * and infinite when the values' spread overflowed a double (which makes the sum -Infinity or NaN).
 */
function spread(m2: number): number {
  return Number.isNaN(m2) || m2 === Number.NEGATIVE_INFINITY ? Number.POSITIVE_INFINITY : Math.max(0, m2);
}

/** The statistics, made callable in `db`. */
export function addStatistics(sqlite3: Sqlite3, db: Db): void {
  const { capi, wasm } = sqlite3;
  const read = (at: number) => [wasm.peek64f(at), wasm.peek64f(at + 8), wasm.peek64f(at + 16)] as number[];
  const write = (at: number, n: number, mean: number, m2: number) => {
    wasm.poke64f(at, n);
    wasm.poke64f(at + 8, mean);
    wasm.poke64f(at + 16, m2);
  };
  const add = (ctx: number, value: unknown) => {
    const x = numberOf(value);
    if (x === undefined) return;
    const at = capi.sqlite3_js_aggregate_context(ctx, STATE_BYTES);
    const [n = 0, mean = 0, m2 = 0] = read(at);
    const delta = x - mean;
    const next = mean + delta / (n + 1);
    write(at, n + 1, next, m2 + delta * (x - next));
  };
  const remove = (ctx: number, value: unknown) => {
    const x = numberOf(value);
    if (x === undefined) return;
    const at = capi.sqlite3_js_aggregate_context(ctx, STATE_BYTES);
    const [n = 0, mean = 0, m2 = 0] = read(at);
    if (n <= 1) return write(at, 0, 0, 0);
    const delta = x - mean;
    const previous = mean - delta / (n - 1);
    write(at, n - 1, previous, m2 - delta * (x - previous));
  };
  for (const [name, figure] of Object.entries(FIGURES)) {
    const value = (ctx: number) => {
      const at = capi.sqlite3_js_aggregate_context(ctx, 0);
      if (at === 0) return null;
      const [n = 0, , m2 = 0] = read(at);
      return figure(n, spread(m2));
    };
    db.createFunction(name, {
      arity: 1,
      deterministic: true,
      xStep: add,
      xInverse: remove,
      xValue: value,
      xFinal: value,
    });
  }
}
