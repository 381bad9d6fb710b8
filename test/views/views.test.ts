/**
 * The MCP Apps views as a person sees them: each view's page, read from the server as a `ui://`
 * resource, framed in a real browser (Debian's chromium, driven by playwright-core) by a host page
 * that speaks through the extension's own AppBridge, given a real tool result from the sandbox.
 * That the chart drew is read from the page (painted canvas pixels, the crosshair's legend, the
 * gauge and the table), not taken from the code. With SCREENSHOTS=1 it saves docs/tools.md's
 * screenshots to docs/screenshots/.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { build } from 'esbuild';
import { type Browser, chromium, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, textOf } from '../helpers/cli.js';
import { startMcp } from '../helpers/in-process.js';
import type { Session } from '../helpers/session.js';
import { BONK_CHART } from '../helpers/tool-names.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = join(REPO_ROOT, 'docs', 'screenshots');
/** docs/tools.md's screenshots are taken again with SCREENSHOTS=1 (a run does not rewrite them otherwise). */
const SAVE_SHOTS = process.env.SCREENSHOTS === '1';
const found = existsSync(CHROMIUM);
if (!found && process.env.CI === 'true')
  throw new Error(`CI needs chromium at ${CHROMIUM} for the views' tests`);
if (!found) console.log(`views: skipped, no chromium at ${CHROMIUM} (set CHROMIUM_PATH)`);

interface Case {
  tool: string;
  args: Record<string, unknown>;
  view: string;
  /** What the page must show: painted canvases (a chart), a gauge, or a table. */
  kind: 'chart' | 'gauge' | 'table';
  shot?: string;
}

const CASES: Case[] = [
  {
    tool: 'get_ohlcv_historical',
    args: { id: '1', count: 60, time_period: 'daily' },
    view: 'price',
    kind: 'chart',
    shot: 'price-candles',
  },
  { tool: 'get_kline_candles', args: { ...BONK_CHART, limit: 120 }, view: 'price', kind: 'chart' },
  {
    tool: 'get_cryptocurrency_quotes_historical',
    args: { id: '1027', count: 200, interval: '1h' },
    view: 'price',
    kind: 'chart',
    shot: 'price-line',
  },
  { tool: 'get_kline_points', args: { ...BONK_CHART, limit: 200 }, view: 'price', kind: 'chart' },
  { tool: 'get_fear_and_greed_latest', args: {}, view: 'sentiment', kind: 'gauge', shot: 'sentiment-gauge' },
  {
    tool: 'get_fear_and_greed_historical',
    args: { limit: 120 },
    view: 'sentiment',
    kind: 'chart',
    shot: 'sentiment-history',
  },
  { tool: 'get_altcoin_season_index_latest', args: {}, view: 'sentiment', kind: 'gauge' },
  {
    tool: 'get_altcoin_season_index_historical',
    args: { timeframe: '90d' },
    view: 'sentiment',
    kind: 'chart',
  },
  {
    tool: 'get_global_metrics_historical',
    args: { count: 200, interval: '1d' },
    view: 'overview',
    kind: 'chart',
    shot: 'overview-history',
  },
  {
    tool: 'get_cryptocurrency_listings_latest',
    args: { limit: 20 },
    view: 'overview',
    kind: 'table',
    shot: 'overview-listings',
  },
];

let mcp: Session;
let browser: Browser;
let page: Page;
const drawTimes: number[] = [];

beforeAll(async () => {
  if (!found) return;
  mcp = await startMcp({ SVC_TOOLSETS: 'all', SVC_CONFIRM_CREDITS: '0' });
  const host = await build({
    entryPoints: [join(import.meta.dirname, 'host.mjs')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  page = await browser.newPage({ viewport: { width: 800, height: 500 } });
  await page.setContent(
    `<!doctype html><html><body></body><script>${host.outputFiles[0]!.text}</script></html>`,
  );
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await mcp?.close();
  if (drawTimes.length > 0) {
    const sorted = [...drawTimes].sort((a, b) => a - b);
    console.log(
      `views: drawn in ${sorted[0]!.toFixed(0)}–${sorted.at(-1)?.toFixed(0)} ms after the tool result`,
    );
  }
});

/** How many pixels the view's canvases painted (a blank chart paints none but its axes). */
function paintedPixels(frame: Frame): Promise<number> {
  // Run in the page (a string: the browser's globals are not this project's types).
  return frame.evaluate(`(() => {
    let painted = 0;
    for (const canvas of document.querySelectorAll('canvas')) {
      if (canvas.width === 0 || canvas.height === 0) continue;
      const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) painted++;
    }
    return painted;
  })()`);
}

/** The host page's entry point (test/views/host.mjs). */
type HostPage = { showView(html: string, input: unknown, result: unknown): Promise<number> };

describe.skipIf(!found)('views in a browser', () => {
  it.each(CASES.map((c) => [c.tool, c] as const))(
    '%s',
    async (_, c) => {
      const result = (await mcp.call(c.tool, c.args)) as CallToolResult;
      expect(result.isError, textOf(result)).toBeFalsy();
      const definition = mcp.tools.find((t) => t.name === c.tool);
      const uri = `ui://svc-mcp/${c.view}.html`;
      expect(definition?._meta).toEqual({ ui: { resourceUri: uri } });
      const { contents } = await mcp.client.readResource({ uri });
      const html = (contents[0] as { text: string }).text;
      expect(Buffer.byteLength(html)).toBeLessThanOrEqual(200 * 1024);

      const sent = await page.evaluate(
        ([h, input, r]) => (globalThis as unknown as HostPage).showView(h, input, r),
        [html, c.args, result] as const,
      );
      const frame = (await (await page.$('iframe'))?.contentFrame()) as Frame;
      if (c.kind === 'chart') {
        await expect.poll(() => paintedPixels(frame), { timeout: 10_000 }).toBeGreaterThan(2_000);
        drawTimes.push((await page.evaluate<number>('performance.now()')) - sent);
        // The crosshair over the middle of the chart puts that moment's values in the legend.
        const box = await (await page.$('iframe'))?.boundingBox();
        if (box) await page.mouse.move(box.x + box.width / 2, box.y + 60 + (box.height - 60) / 2);
        await expect.poll(() => frame.textContent('#legend')).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d {2}\S/);
        // The closes' 20-period average is drawn over them, and read with them.
        if (c.view === 'price') expect(await frame.textContent('#legend')).toMatch(/ {2}SMA20 \S+ /);
      } else if (c.kind === 'gauge') {
        await expect.poll(() => frame.locator('svg line').count()).toBe(1);
        expect(await frame.textContent('svg text')).toMatch(/^\d+ – \S/);
      } else {
        await expect.poll(() => frame.locator('tbody tr').count()).toBe(15);
        expect(await frame.textContent('tbody tr')).toMatch(/^BTC/);
      }
      expect(await frame.textContent('#message')).toBe('');
      if (c.shot && SAVE_SHOTS)
        await page.screenshot({
          path: join(SHOTS, `${c.shot}.png`),
          clip: { x: 0, y: 0, width: 780, height: 480 },
        });
    },
    30_000,
  );
});

describe.skipIf(!found)("a third party's text in a view", () => {
  // A token's symbol and the service's labels are anyone's to write: shown as text, never as markup,
  // which in the view's frame could run script that speaks to the host for it.
  const MARKUP = '<img src="x" onerror="document.body.dataset.ran = 1">';

  it.each([
    ['get_cryptocurrency_listings_latest', { limit: 20 }, 'overview', 'tbody tr'],
    ['get_fear_and_greed_latest', {}, 'sentiment', 'svg text'],
    ['get_altcoin_season_index_latest', {}, 'sentiment', 'svg text'],
  ] as const)('%s shows it as text', async (tool, args, view, where) => {
    const result = (await mcp.call(tool, args)) as CallToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    const data = structuredClone(result.structuredContent) as Record<string, unknown>;
    if (Array.isArray(data.items)) (data.items[0] as { symbol: string }).symbol = MARKUP;
    else if ('value_classification' in data) data.value_classification = MARKUP;
    else data.season = MARKUP;
    const { contents } = await mcp.client.readResource({ uri: `ui://svc-mcp/${view}.html` });
    const html = (contents[0] as { text: string }).text;
    await page.evaluate(([h, input, r]) => (globalThis as unknown as HostPage).showView(h, input, r), [
      html,
      args,
      { ...result, structuredContent: data },
    ] as const);
    const frame = (await (await page.$('iframe'))?.contentFrame()) as Frame;
    await expect.poll(() => frame.locator(where).count()).toBeGreaterThan(0);
    expect(await frame.locator(where).first().textContent()).toContain(MARKUP);
    expect(await frame.locator('img').count()).toBe(0);
    expect(await frame.evaluate('document.body.dataset.ran')).toBeUndefined();
  });
});
