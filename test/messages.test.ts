import { describe, expect, it } from 'vitest';
import { clip } from '../src/messages.js';

describe('clip: what a caller sent, as a message repeats it', () => {
  it('keeps printable text of at most the bound as it is', () => {
    expect(clip('bitcoin')).toBe('bitcoin');
    expect(clip('x'.repeat(60))).toBe('x'.repeat(60));
  });

  it('marks each character outside printable ASCII', () => {
    expect(clip('a\u0000b\nc é')).toBe('a?b?c ?');
  });

  it('cuts longer text at the bound and says so, whatever its length', () => {
    expect(clip('é'.repeat(61))).toBe(`${'?'.repeat(60)}…`);
    expect(clip(`${'y'.repeat(20)}\u0007`.repeat(50_000), 20)).toBe(`${'y'.repeat(20)}…`);
  });
});
