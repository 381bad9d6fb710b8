// @ts-check
/**
 * Market overview: total market cap, volume and BTC/ETH dominance over time for the global
 * metrics history; the top of the listings with their 24 h change.
 */
import { AreaSeries, HistogramSeries, LineSeries } from 'lightweight-charts';
import { byTime, connect, escapeHtml, reportSize, showMessage, toSeconds } from './bridge.mjs';
import { COLORS, legendOnCrosshair, newChart, short, when } from './chart.mjs';

const TOP = 15;

function globalHistory(data) {
  const currency = data.quotes[0]?.quote?.[0]?.currency ?? 'USD';
  const rows = data.quotes.map((q) => {
    const money = q.quote.find((c) => c.currency === currency) ?? {};
    return {
      time: toSeconds(q.timestamp),
      cap: money.total_market_cap,
      volume: money.total_volume_24h,
      btc: q.btc_dominance,
      eth: q.eth_dominance,
    };
  });
  document.getElementById('title').textContent = `Market cap, volume and dominance (${currency})`;
  const chart = newChart(document.getElementById('chart'), { leftPriceScale: { visible: true } });
  const cap = chart.addSeries(AreaSeries, {
    lineColor: COLORS.line,
    topColor: `${COLORS.line}44`,
    bottomColor: `${COLORS.line}05`,
  });
  const volume = chart.addSeries(HistogramSeries, { priceScaleId: 'volume', color: `${COLORS.second}66` });
  chart.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
  const btc = chart.addSeries(LineSeries, { priceScaleId: 'left', color: COLORS.second, lineWidth: 1 });
  const eth = chart.addSeries(LineSeries, { priceScaleId: 'left', color: COLORS.third, lineWidth: 1 });
  const of = (key) =>
    byTime(rows.filter((r) => Number.isFinite(r[key])).map((r) => ({ time: r.time, value: r[key] })));
  cap.setData(of('cap'));
  volume.setData(of('volume'));
  btc.setData(of('btc'));
  eth.setData(of('eth'));
  chart.timeScale().fitContent();
  legendOnCrosshair(
    chart,
    document.getElementById('legend'),
    (series, time) =>
      `${when(time)}  Cap ${short(series.get(cap)?.value)}  Vol ${short(series.get(volume)?.value)}  BTC ${series.get(btc)?.value?.toFixed(1)}%  ETH ${series.get(eth)?.value?.toFixed(1)}%`,
    `${rows.length} points`,
  );
}

function listings(items) {
  document.getElementById('title').textContent =
    `Top ${Math.min(TOP, items.length)} by market cap, 24 h change`;
  const top = items.slice(0, TOP);
  const widest = Math.max(1, ...top.map((a) => Math.abs(a.quote?.[0]?.percent_change_24h ?? 0)));
  const rows = top.map((a) => {
    const q = a.quote?.[0] ?? {};
    const change = q.percent_change_24h ?? 0;
    const width = (Math.abs(change) / widest) * 50;
    const bar = `<span class="bar" style="${change < 0 ? `right:50%;background:${COLORS.down}` : `left:50%;background:${COLORS.up}`};width:${width}%"></span>`;
    return `<tr><td>${escapeHtml(a.symbol)}</td><td class="num">${short(q.price)}</td><td class="num">${short(q.market_cap)}</td><td class="change">${bar}<span class="label">${change > 0 ? '+' : ''}${change.toFixed(2)}%</span></td></tr>`;
  });
  document.getElementById('chart').innerHTML =
    `<table><thead><tr><th>Asset</th><th>Price</th><th>Market cap</th><th>24 h</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function draw(result) {
  const data = result.structuredContent ?? {};
  if (Array.isArray(data.quotes) && data.quotes.length > 0) globalHistory(data);
  else if (Array.isArray(data.items) && data.items.length > 0) listings(data.items);
  else return showMessage('No market data to draw.');
  reportSize();
}

connect('svc-mcp market overview', draw).catch((error) =>
  showMessage(`No host to draw for: ${error.message}`),
);
