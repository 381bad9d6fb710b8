/**
 * What a model types that the server does not list: a tool name close to one the server has, even
 * one the settings hide (named with the toolset or plan that hides it and the setting that shows
 * it); and the server's instructions, built from the tools it lists, never naming another.
 */
import { describe, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { openInProcess } from '../helpers/in-process.js';

describe('an unknown tool', () => {
  it('get_posts points at the posts tools, hidden by default, and says how to list them', async () => {
    const session = await openInProcess();
    try {
      const result = await session.call('get_posts');
      expect(result.isError).toBe(true);
      const text = textOf(result);
      expect(text).toMatch(/^Unknown tool "get_posts"\. Did you mean get_top_posts/);
      expect(text).toContain('get_top_posts is in the content toolset');
      expect(text).toContain('add content (or all) to SVC_TOOLSETS');
    } finally {
      await session.close();
    }
  });

  it('a listed tool close to the name comes first, with nothing to add', async () => {
    const session = await openInProcess();
    try {
      const text = textOf(await session.call('get_fear_greed'));
      expect(text).toMatch(/^Unknown tool "get_fear_greed"\. Did you mean get_fear_and_greed_latest/);
      expect(text).not.toContain('SVC_TOOLSETS');
    } finally {
      await session.close();
    }
  });

  it('a tool the plan lacks is named with the plans that have it', async () => {
    const session = await openInProcess({ SVC_PLAN: 'basic', SVC_TOOLSETS: 'all' });
    try {
      const text = textOf(await session.call('get_ohlcv_history'));
      expect(text).toMatch(/Did you mean get_ohlcv_historical/);
      expect(text).toMatch(
        /get_ohlcv_historical needs the Startup, Standard, Professional or Enterprise plan/,
      );
    } finally {
      await session.close();
    }
  });
});

describe('the instructions', () => {
  /** The instructions a client is given under these settings. */
  async function instructionsWith(env: Record<string, string>): Promise<{ text: string; tools: string[] }> {
    const session = await openInProcess(env, 'v2');
    try {
      const text = session.instructions ?? '';
      return { text, tools: session.tools.map((t) => t.name) };
    } finally {
      await session.close();
    }
  }

  it('name only tools that are listed', async () => {
    for (const toolsets of ['sentiment', 'default', 'content,account', 'all']) {
      const { text, tools } = await instructionsWith({ SVC_TOOLSETS: toolsets });
      expect(text.length, toolsets).toBeGreaterThan(100);
      const named = text.match(/\b[a-z]+(?:_[a-z0-9]+)+\b/g) ?? [];
      for (const name of named.filter((n) => /^(get|list|search|estimate|convert)_/.test(n))) {
        expect(tools, `${toolsets}: ${name}`).toContain(name);
      }
    }
  });

  it('say what the listed tools answer: sentiment alone is not market listings', async () => {
    const sentiment = await instructionsWith({ SVC_TOOLSETS: 'sentiment' });
    const [answers, more] = sentiment.text.split('More tools can be turned on');
    expect(answers).toMatch(/fear and greed/i);
    expect(answers).not.toMatch(/search_cryptocurrencies|get_credit_usage|listings/);
    // The toolsets not listed, and what each adds, in one line for whoever runs the server.
    expect(more).toMatch(
      /^ with SVC_TOOLSETS: global_metrics \(global market totals.*cryptocurrency \(cryptocurrencies: search.*content \(news, articles and community posts\)/,
    );
    const all = await instructionsWith({ SVC_TOOLSETS: 'all' });
    expect(all.text).toContain('search_cryptocurrencies');
    expect(all.text).toContain('get_credit_usage');
    expect(all.text).toMatch(/news/i);
    expect(all.text).not.toContain('More tools can be turned on');
  });

  it('by default, name the toolsets that add more: kline, legacy and the rest of content', async () => {
    const { text } = await instructionsWith({});
    expect(text).toMatch(
      /More tools can be turned on with SVC_TOOLSETS: .*content \(news, articles and community posts\).*kline \(DEX token candles/,
    );
  });
});
