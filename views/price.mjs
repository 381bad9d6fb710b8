// @ts-check
/**
 * Price chart: candles and volume for get_ohlcv_historical and get_kline_candles, a line for
 * get_cryptocurrency_quotes_historical and get_kline_points, with the closes' 20- and 50-period
 * simple moving averages drawn over them; the crosshair's values in the legend.
 */
import { CandlestickSeries, HistogramSeries, LineSeries } from 'lightweight-charts';
import { byTime, connect, reportSize, showMessage, toSeconds } from './bridge.mjs';
import { COLORS, legendOnCrosshair, newChart, short, when } from './chart.mjs';

/** The first asset's series in the first currency: {title, candles?, line?}. */
function seriesOf(data) {
  if (Array.isArray(data.candles)) {
    return { title: `${data.address?.slice(0, 10)}… on ${data.platform}`, candles: data.candles.map(candle) };
  }
  if (Array.isArray(data.points)) {
    return {
      title: `${data.address?.slice(0, 10)}… on ${data.platform}`,
      line: data.points.map((p) => ({ time: toSeconds(p.time), value: p.value, volume: p.volume })),
    };
  }
  const asset = data.items?.[0];
  if (!asset) return undefined;
  const currency = asset.quotes?.[0]?.quote?.[0]?.currency ?? 'USD';
  const inCurrency = (q) => q.quote.find((c) => c.currency === currency) ?? {};
  if (asset.quotes?.[0]?.time_open !== undefined) {
    return {
      title: `${asset.name} (${asset.symbol}) in ${currency}`,
      candles: asset.quotes.map((q) => candle({ time: q.time_open, ...inCurrency(q) })),
    };
  }
  return {
    title: `${asset.name} (${asset.symbol}) in ${currency}`,
    line: asset.quotes.map((q) => ({
      time: toSeconds(q.timestamp),
      value: inCurrency(q).price,
      volume: inCurrency(q).volume_24h,
    })),
  };
}

function candle(c) {
  return {
    time: toSeconds(c.time),
    open: c.open,
    high: c.high,
    low: c.low,
    close: c.close,
    volume: c.volume,
  };
}

const valued = (points, key) => byTime(points.filter((p) => Number.isFinite(p[key])));

/** The simple moving average of the last `n` closes, from the n-th point on (analyze_assets' sma.n). */
function movingAverage(points, n) {
  const out = [];
  let sum = 0;
  points.forEach((p, i) => {
    sum += p.value;
    if (i >= n) sum -= points[i - n].value;
    if (i >= n - 1) out.push({ time: p.time, value: sum / n });
  });
  return out;
}

/** SMA20 and SMA50 over the closes, each a thin line of its own colour. */
function drawAverages(chart, closes) {
  return [
    [20, COLORS.second],
    [50, COLORS.third],
  ].map(([n, color]) => {
    const line = chart.addSeries(LineSeries, {
      color,
      lineWidth: 1,
      priceLineVisible: false,
      lastValueVisible: false,
    });
    line.setData(movingAverage(closes, n));
    return { n, line };
  });
}

function draw(result) {
  const series = result.structuredContent && seriesOf(result.structuredContent);
  if (!series) return showMessage('No price data to draw.');
  document.getElementById('title').textContent = series.title;
  const chart = newChart(document.getElementById('chart'));
  const volume = chart.addSeries(HistogramSeries, {
    priceScaleId: 'volume',
    priceFormat: { type: 'volume' },
    color: `${COLORS.line}55`,
  });
  chart.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
  let main;
  if (series.candles) {
    main = chart.addSeries(CandlestickSeries, {
      upColor: COLORS.up,
      downColor: COLORS.down,
      wickUpColor: COLORS.up,
      wickDownColor: COLORS.down,
      borderVisible: false,
    });
    main.setData(valued(series.candles, 'close'));
  } else {
    main = chart.addSeries(LineSeries, { color: COLORS.line, lineWidth: 2 });
    main.setData(valued(series.line, 'value').map(({ time, value }) => ({ time, value })));
  }
  const points = series.candles ?? series.line;
  const closes = series.candles
    ? valued(series.candles, 'close').map(({ time, close }) => ({ time, value: close }))
    : valued(series.line, 'value').map(({ time, value }) => ({ time, value }));
  const averages = drawAverages(chart, closes);
  volume.setData(valued(points, 'volume').map(({ time, volume: value }) => ({ time, value })));
  chart.timeScale().fitContent();
  const last = points.at(-1);
  legendOnCrosshair(
    chart,
    document.getElementById('legend'),
    (data, time) => {
      const p = data.get(main);
      const v = data.get(volume)?.value;
      const price =
        p?.close !== undefined
          ? `O ${short(p.open)} H ${short(p.high)} L ${short(p.low)} C ${short(p.close)}`
          : `${short(p?.value)}`;
      const smas = averages
        .map(({ n, line }) => {
          const value = data.get(line)?.value;
          return value === undefined ? '' : `  SMA${n} ${short(value)}`;
        })
        .join('');
      return `${when(time)}  ${price}${smas}  Vol ${short(v)}`;
    },
    last ? `${points.length} points; last ${short(last.close ?? last.value)}` : '',
  );
  reportSize();
}

connect('svc-mcp price chart', draw).catch((error) => showMessage(`No host to draw for: ${error.message}`));
