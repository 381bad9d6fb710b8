// @ts-check
/**
 * Sentiment: a gauge for the latest fear and greed or altcoin season value, a line with the bands
 * for their histories (fear and greed 20/40/60/80; altcoin season 25/75).
 */
import { LineSeries } from 'lightweight-charts';
import { byTime, connect, escapeHtml, reportSize, showMessage, toSeconds } from './bridge.mjs';
import { COLORS, legendOnCrosshair, newChart, when } from './chart.mjs';

const FEAR_AND_GREED_BANDS = [20, 40, 60, 80];
const ALTCOIN_SEASON_BANDS = [25, 75];

/** A half-circle gauge, 0 to 100, its needle at `value`. */
function gauge(value, label, title) {
  const angle = Math.PI * (1 - Math.min(100, Math.max(0, value)) / 100);
  const x = 100 + 80 * Math.cos(angle);
  const y = 100 - 80 * Math.sin(angle);
  const arc = (from, to, color) => {
    const a0 = Math.PI * (1 - from / 100);
    const a1 = Math.PI * (1 - to / 100);
    return `<path d="M ${100 + 90 * Math.cos(a0)} ${100 - 90 * Math.sin(a0)} A 90 90 0 0 1 ${100 + 90 * Math.cos(a1)} ${100 - 90 * Math.sin(a1)}" stroke="${color}" stroke-width="16" fill="none"/>`;
  };
  document.getElementById('chart').innerHTML =
    `<svg viewBox="0 0 200 130" role="img" aria-label="${escapeHtml(`${title} ${value}`)}">
    ${arc(0, 25, COLORS.down)}${arc(25, 50, '#ffb74d')}${arc(50, 75, '#c0ca33')}${arc(75, 100, COLORS.up)}
    <line x1="100" y1="100" x2="${x}" y2="${y}" stroke="${COLORS.text}" stroke-width="4" stroke-linecap="round"/>
    <circle cx="100" cy="100" r="6" fill="${COLORS.text}"/>
    <text x="100" y="124" text-anchor="middle" font-size="16" fill="${COLORS.text}">${escapeHtml(`${Math.round(value)} – ${label}`)}</text>
  </svg>`;
}

function history(points, bands, title) {
  const chart = newChart(document.getElementById('chart'), {
    rightPriceScale: { autoScale: false, scaleMargins: { top: 0.05, bottom: 0.05 } },
  });
  const line = chart.addSeries(LineSeries, { color: COLORS.line, lineWidth: 2 });
  line.setData(byTime(points));
  line.applyOptions({ autoscaleInfoProvider: () => ({ priceRange: { minValue: 0, maxValue: 100 } }) });
  for (const band of bands) {
    line.createPriceLine({
      price: band,
      color: COLORS.grid,
      lineWidth: 1,
      lineStyle: 2,
      axisLabelVisible: true,
    });
  }
  chart.timeScale().fitContent();
  const last = points.at(-1);
  legendOnCrosshair(
    chart,
    document.getElementById('legend'),
    (data, time) => `${when(time)}  ${title} ${data.get(line)?.value ?? 'n/a'}`,
    last ? `${points.length} days; latest ${last.value}` : '',
  );
}

function draw(result) {
  const data = result.structuredContent ?? {};
  const title = document.getElementById('title');
  if (data.value_classification !== undefined) {
    title.textContent = 'Fear & Greed';
    gauge(data.value, data.value_classification, 'Fear and greed');
  } else if (data.altcoin_index !== undefined) {
    title.textContent = 'Altcoin Season Index';
    gauge(data.altcoin_index, data.season, 'Altcoin season');
  } else if (Array.isArray(data.items)) {
    title.textContent = 'Fear & Greed, daily';
    history(
      data.items.map((d) => ({ time: toSeconds(d.timestamp), value: d.value })),
      FEAR_AND_GREED_BANDS,
      'Fear & Greed',
    );
  } else if (Array.isArray(data.points)) {
    title.textContent = `Altcoin Season Index, ${data.timeframe}`;
    history(
      data.points.map((p) => ({ time: toSeconds(p.timestamp), value: p.altcoin_index })),
      ALTCOIN_SEASON_BANDS,
      'Altcoin season',
    );
  } else {
    return showMessage('No sentiment data to draw.');
  }
  reportSize();
}

connect('svc-mcp sentiment', draw).catch((error) => showMessage(`No host to draw for: ${error.message}`));
