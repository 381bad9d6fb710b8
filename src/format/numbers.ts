/** Numbers for people: $1.93T, +2.4%, 1,234.5. */

import { currencyLabel } from '../currency-ids.js';

const SIGNS: Record<string, string> = {
  USD: '$',
  EUR: '€',
  GBP: '£',
  JPY: '¥',
  CNY: '¥',
  INR: '₹',
  KRW: '₩',
};
const SUFFIXES: [number, string][] = [
  [1e12, 'T'],
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'K'],
];

/** 1_930_000_000_000 → "1.93T"; below a thousand, an amount with cents. */
function formatCompact(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'n/a';
  const abs = Math.abs(value);
  for (const [size, suffix] of SUFFIXES) {
    if (abs >= size) return `${trim((value / size).toFixed(abs / size >= 100 ? 1 : 2))}${suffix}`;
  }
  return formatAmount(value);
}

/**
 * en-US number formats, each made once on first use: `toLocaleString` with options makes a new
 * one on every call, and the first one a process makes loads the locale data, which an answer
 * with only whole numbers never needs (formatWhole).
 */
const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = JSON.stringify(options);
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat('en-US', options);
    numberFormats.set(key, format);
  }
  return format;
}

/** An amount of money: cents from 1 up (3,733.50), four significant digits below (0.07088). */
function formatAmount(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'n/a';
  const abs = Math.abs(value);
  if (abs > 0 && abs < 1) return fourDigits(value);
  return numberFormat({ minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
}

/** Under 1, four significant digits in plain decimals: 0.07088, 0.000000001857 (never 1.857e-9). */
function fourDigits(value: number): string {
  return numberFormat({ maximumSignificantDigits: 4 }).format(value);
}

/** A whole number with separators (1,234,567), as formatNumber writes it, without the locale data. */
export function formatWhole(value: number): string {
  return String(Math.trunc(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A plain number with separators; prices under 1 keep four significant digits. */
export function formatNumber(value: number | null | undefined, maxDecimals = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'n/a';
  if (Number.isInteger(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER) return formatWhole(value);
  const abs = Math.abs(value);
  if (abs > 0 && abs < 1) return fourDigits(value);
  return numberFormat({ maximumFractionDigits: maxDecimals }).format(value);
}

/** An amount in a currency: "$1.93T", "€2.1B", "0.0312 BTC". */
export function formatMoney(value: number | null | undefined, currency = 'USD', compact = true): string {
  const amount = compact ? formatCompact(value) : formatAmount(value);
  if (amount === 'n/a') return amount;
  const code = currencyLabel(currency);
  const sign = SIGNS[code.toUpperCase()];
  if (!sign) return `${amount} ${code}`;
  return amount.startsWith('-') ? `-${sign}${amount.slice(1)}` : `${sign}${amount}`;
}

/** A price: full digits, not compact, unless it is very large. */
export function formatPrice(value: number | null | undefined, currency = 'USD'): string {
  return formatMoney(value, currency, value !== null && value !== undefined && Math.abs(value) >= 1e9);
}

/** A change in percent with its sign: "+2.4%", "-0.35%". */
export function formatPercent(value: number | null | undefined, decimals = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'n/a';
  const fixed =
    Math.abs(value) < 1 && value !== 0 ? value.toFixed(Math.max(decimals, 2)) : value.toFixed(decimals);
  return `${value > 0 ? '+' : ''}${fixed}%`;
}

/** A share in percent without a sign: "56.2%". */
export function formatShare(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'n/a';
  return `${value.toFixed(1)}%`;
}

function trim(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/** A number as a query string writes it: plain decimal digits, never an exponent (1e-8 → 0.00000001). */
export function plainDecimal(value: number): string {
  return numberFormat({ useGrouping: false, maximumFractionDigits: 20 }).format(value);
}

/** A number to `digits` significant digits in plain decimals, without separators: 0.000000001857, 2026. */
export function plainSignificant(value: number, digits: number): string {
  return numberFormat({ useGrouping: false, maximumSignificantDigits: digits }).format(value);
}
