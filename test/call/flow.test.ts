/**
 * The parts that pace the work, on their own: the limiter (calls in flight and waiting), cpu turns
 * (heavy answers one per turn of the event loop) and the stdio writer (short messages first).
 */
import { Writable } from 'node:stream';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { CpuTurns, cpuTurns, LIGHT_BYTES } from '../../src/cpu-turns.js';
import { fullCollection, IdleCollection } from '../../src/idle-collection.js';
import { ShortFirstOutput } from '../../src/mcp/short-first-output.js';
import { BusyError, CallLimiter } from '../../src/services/limiter.js';
import { until } from '../helpers/until.js';

/** A promise and the function that settles it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('the limiter', () => {
  it('runs at most its slots at once; the next waiting call starts when one ends, in order', async () => {
    const limiter = new CallLimiter(5_000, 2, 10);
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const calls = gates.map((g, i) =>
      limiter.run(async () => {
        started.push(i);
        await g.opened;
        return i;
      }),
    );
    await until(() => started.length === 2);
    expect(started).toEqual([0, 1]);
    gates[1]!.open();
    await until(() => started.length === 3);
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    expect(await Promise.all(calls)).toEqual([0, 1, 2, 3]);
  });

  it('refuses at once past its queue, and a call that waited too long, saying the server is busy', async () => {
    const limiter = new CallLimiter(100, 1, 1);
    const held = gate();
    const running = limiter.run(() => held.opened);
    const waiting = limiter.run(async () => 'late');
    await expect(limiter.run(async () => 'refused')).rejects.toThrow(
      /^The server is busy: 1 calls are being answered and 1 are waiting/,
    );
    await expect(waiting).rejects.toBeInstanceOf(BusyError);
    await expect(waiting).rejects.toThrow(/waited 0.1 s for its turn among 1 calls at once/);
    held.open();
    await running;
    expect(await limiter.run(async () => 'free again')).toBe('free again');
  });

  it('answers expected past the bytes in flight wait; smaller ones behind them go ahead; one alone always runs', async () => {
    const limiter = new CallLimiter(5_000, 8, 10, 100);
    const held = gate();
    const order: string[] = [];
    const first = limiter.run(
      async () => {
        await held.opened;
        order.push('heavy 80');
      },
      undefined,
      80,
    );
    const second = limiter.run(
      async () => {
        order.push('heavy 50');
      },
      undefined,
      50,
    );
    const third = limiter.run(
      async () => {
        order.push('light 10');
      },
      undefined,
      10,
    );
    await third;
    expect(order).toEqual(['light 10']);
    held.open();
    await Promise.all([first, second]);
    expect(order).toEqual(['light 10', 'heavy 80', 'heavy 50']);
    expect(await limiter.run(async () => 'alone', undefined, 1_000)).toBe('alone');
  });

  it('a call cancelled while it waits leaves the queue and never runs; a failed call frees its slot', async () => {
    const limiter = new CallLimiter(5_000, 1, 10);
    const held = gate();
    const running = limiter.run(() => held.opened);
    const controller = new AbortController();
    let ran = false;
    const cancelled = limiter.run(async () => {
      ran = true;
    }, controller.signal);
    controller.abort();
    await expect(cancelled).rejects.toThrow('The call was cancelled.');
    held.open();
    await running;
    await expect(limiter.run(() => Promise.reject(new Error('upstream failed')))).rejects.toThrow(
      'upstream failed',
    );
    expect(await limiter.run(async () => 'next')).toBe('next');
    expect(ran).toBe(false);
  });
});

describe('cpu turns', () => {
  it('light work runs at once; heavy work waits for a turn of its own, in order', async () => {
    const turns = new CpuTurns();
    const order: string[] = [];
    const heavy1 = turns.run(LIGHT_BYTES, () => order.push('heavy 1'));
    const heavy2 = turns.run(LIGHT_BYTES * 10, () => order.push('heavy 2'));
    const light = turns.run(10, () => order.push('light'));
    expect(order).toEqual(['light']);
    // A timer due now fires between two heavy pieces: each is a macrotask of its own.
    setTimeout(() => order.push('timer'), 0);
    await Promise.all([heavy1, heavy2, light]);
    expect(order[0]).toBe('light');
    expect(order.indexOf('heavy 1')).toBeLessThan(order.indexOf('heavy 2'));
  });

  it('a piece that throws rejects alone; the next still runs', async () => {
    const turns = new CpuTurns();
    const failed = turns.run(LIGHT_BYTES, () => {
      throw new Error('bad answer');
    });
    const next = turns.run(LIGHT_BYTES, () => 'parsed');
    await expect(failed).rejects.toThrow('bad answer');
    expect(await next).toBe('parsed');
    // Light work that throws rejects too, rather than throwing at the caller.
    await expect(
      turns.run(1, () => {
        throw new Error('light and bad');
      }),
    ).rejects.toThrow('light and bad');
  });

  it('holds nothing of a finished piece: its result is collected once its caller lets it go', async () => {
    const collect = fullCollection();
    const turns = new CpuTurns();
    let result: object | undefined = await turns.run(LIGHT_BYTES, () => ({ rows: new Array(1000).fill(1) }));
    const held = new WeakRef(result);
    result = undefined;
    // Turns may end a tick after their result is handed on: then nothing of it is left.
    await new Promise((resolve) => setImmediate(resolve));
    collect();
    expect(held.deref()).toBeUndefined();
    // Making the collection callable gives no gc to anything else.
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});

describe('the collection when heavy work stops', () => {
  it('is started by the CLI only: a program that builds the server keeps its own heap', async () => {
    // What these tests import to build a server on stdio, heap.ts among it.
    await import('../../src/mcp/stdio.js');
    expect(cpuTurns.afterHeavy).toBeUndefined();
  });

  const quietMs = 300;
  const heavyBytes = 3 * LIGHT_BYTES;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  function collected() {
    const turns = new CpuTurns();
    const times: number[] = [];
    turns.afterHeavy = new IdleCollection(() => times.push(Date.now()), { quietMs, heavyBytes }).heavy;
    return { turns, times };
  }

  it('collects twice, a quiet spell apart, after enough heavy work, and not for light or little work', async () => {
    const { turns, times } = collected();
    for (let i = 0; i < 50; i++) await turns.run(LIGHT_BYTES - 1, () => i);
    await turns.run(LIGHT_BYTES, () => 'one heavy piece');
    await sleep(quietMs * 2);
    expect(times).toEqual([]);
    await turns.run(LIGHT_BYTES, () => 'two');
    const lastHeavy = Date.now();
    await turns.run(LIGHT_BYTES, () => 'three: enough');
    await until(() => times.length === 2);
    expect(times[0]! - lastHeavy).toBeGreaterThanOrEqual(quietMs - 5);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(quietMs - 5);
    await sleep(quietMs * 2);
    expect(times).toHaveLength(2);
  });

  it('waits while heavy pieces keep coming, a piece that throws counting too', async () => {
    const { turns, times } = collected();
    let lastHeavy = 0;
    for (let i = 0; i < 6; i++) {
      await turns
        .run(LIGHT_BYTES, () => {
          if (i === 5) throw new Error('bad answer');
        })
        .catch(() => undefined);
      // Taken once the piece has ended: a sleep that oversleeps under load moves nothing.
      lastHeavy = Date.now();
      await sleep(50);
    }
    expect(times).toEqual([]);
    await until(() => times.length === 1);
    expect(times[0]! - lastHeavy).toBeGreaterThanOrEqual(quietMs - 5);
    // A heavy piece between the two collections puts the second off until quiet again.
    await turns.run(LIGHT_BYTES, () => 'one more');
    const oneMore = Date.now();
    await until(() => times.length === 2);
    expect(times[1]! - oneMore).toBeGreaterThanOrEqual(quietMs - 5);
  });
});

describe('the stdio writer', () => {
  /** A pipe the host reads only when told to: what it received, in order. */
  function slowHost() {
    const received: string[] = [];
    const pending: (() => void)[] = [];
    const sink = new Writable({
      highWaterMark: 16 * 1024,
      decodeStrings: false,
      write(chunk: string, _encoding, done) {
        received.push(chunk);
        pending.push(done);
      },
    });
    const readOne = () => pending.shift()?.();
    return { sink, received, readOne };
  }

  it('a short message written behind long ones reaches the host before them', async () => {
    const host = slowHost();
    const output = new ShortFirstOutput(host.sink as unknown as NodeJS.WriteStream);
    const long = (n: number) => `{"id":${n},"result":"${'x'.repeat(100_000)}"}\n`;
    for (const n of [1, 2, 3]) output.write(long(n));
    output.write('{"id":4,"result":{}}\n');
    let flushed = false;
    void output.flushed().then(() => {
      flushed = true;
    });
    // The host reads one message per turn until the writer says everything was sent.
    while (!flushed) {
      host.readOne();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const ids = host.received.filter((m) => m !== '').map((m) => Number(/"id":(\d+)/.exec(m)?.[1]));
    expect(ids[0]).toBe(1);
    expect(ids.indexOf(4)).toBeLessThan(ids.indexOf(2));
    expect([...ids].sort()).toEqual([1, 2, 3, 4]);
  });

  it('when the host goes away nothing more is written and waiting for a flush ends', async () => {
    const host = slowHost();
    const output = new ShortFirstOutput(host.sink as unknown as NodeJS.WriteStream);
    output.write(`${'y'.repeat(200_000)}\n`);
    output.write(`${'z'.repeat(200_000)}\n`);
    const flushed = output.flushed();
    output.destroy();
    await flushed;
    expect(host.received.length).toBeLessThanOrEqual(1);
  });
});
