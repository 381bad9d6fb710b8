/**
 * Fiat currencies for `convert` and price conversion, with the real service's ids. Each has a value
 * in US dollars that drifts slowly and deterministically (a few percent over months), so converted
 * quotes move a little differently from USD ones.
 */
import { METAL_IDS } from '../service/market.js';
import { fractal, type Octave, seedOf } from './noise.js';

export interface Fiat {
  id: number;
  name: string;
  sign: string;
  symbol: string;
  /** US dollars per unit at the model's reference date. */
  baseUsd: number;
  seed: number;
}

const FIAT_TABLE: readonly [number, string, string, string, number][] = [
  [2781, 'United States Dollar', '$', 'USD', 1],
  [2782, 'Australian Dollar', '$', 'AUD', 0.65],
  [2783, 'Brazilian Real', 'R$', 'BRL', 0.18],
  [2784, 'Canadian Dollar', '$', 'CAD', 0.72],
  [2785, 'Swiss Franc', 'Fr', 'CHF', 1.24],
  [2786, 'Chilean Peso', '$', 'CLP', 0.00105],
  [2787, 'Chinese Yuan', '¥', 'CNY', 0.14],
  [2788, 'Czech Koruna', 'Kč', 'CZK', 0.047],
  [2789, 'Danish Krone', 'kr', 'DKK', 0.155],
  [2790, 'Euro', '€', 'EUR', 1.16],
  [2791, 'Pound Sterling', '£', 'GBP', 1.33],
  [2792, 'Hong Kong Dollar', '$', 'HKD', 0.1285],
  [2793, 'Hungarian Forint', 'Ft', 'HUF', 0.003],
  [2794, 'Indonesian Rupiah', 'Rp', 'IDR', 0.00006],
  [2795, 'Israeli New Shekel', '₪', 'ILS', 0.3],
  [2796, 'Indian Rupee', '₹', 'INR', 0.0113],
  [2797, 'Japanese Yen', '¥', 'JPY', 0.0066],
  [2798, 'South Korean Won', '₩', 'KRW', 0.00069],
  [2799, 'Mexican Peso', '$', 'MXN', 0.054],
  [2800, 'Malaysian Ringgit', 'RM', 'MYR', 0.24],
  [2801, 'Norwegian Krone', 'kr', 'NOK', 0.099],
  [2802, 'New Zealand Dollar', '$', 'NZD', 0.57],
  [2803, 'Philippine Peso', '₱', 'PHP', 0.017],
  [2804, 'Pakistani Rupee', '₨', 'PKR', 0.0036],
  [2805, 'Polish Złoty', 'zł', 'PLN', 0.27],
  [2806, 'Russian Ruble', '₽', 'RUB', 0.0125],
  [2807, 'Swedish Krona', 'kr', 'SEK', 0.105],
  [2808, 'Singapore Dollar', 'S$', 'SGD', 0.77],
  [2809, 'Thai Baht', '฿', 'THB', 0.031],
  [2810, 'Turkish Lira', '₺', 'TRY', 0.024],
  [2811, 'New Taiwan Dollar', 'NT$', 'TWD', 0.032],
  [2812, 'South African Rand', 'R', 'ZAR', 0.057],
  [2823, 'United Arab Emirates Dirham', 'د.إ', 'AED', 0.2723],
  [2824, 'Argentine Peso', '$', 'ARS', 0.0007],
  [2832, 'Ukrainian Hryvnia', '₴', 'UAH', 0.024],
  [2833, 'Vietnamese Dong', '₫', 'VND', 0.000038],
  [2821, 'Nigerian Naira', '₦', 'NGN', 0.00068],
  [2813, 'Saudi Riyal', '﷼', 'SAR', 0.2666],
];

export const FIATS: readonly Fiat[] = FIAT_TABLE.map(([id, name, sign, symbol, baseUsd]) => ({
  id,
  name,
  sign,
  symbol,
  baseUsd,
  seed: seedOf(`fiat:${symbol}`),
}));

/** The precious metals the fiat map adds with include_metals (per troy ounce). */
export const METALS: readonly Pick<Fiat, 'id' | 'name' | 'sign' | 'symbol'>[] = [
  { id: METAL_IDS.XAU, name: 'Gold Troy Ounce', sign: '', symbol: 'XAU' },
  { id: METAL_IDS.XAG, name: 'Silver Troy Ounce', sign: '', symbol: 'XAG' },
  { id: METAL_IDS.XPT, name: 'Platinum Ounce', sign: '', symbol: 'XPT' },
  { id: METAL_IDS.XPD, name: 'Palladium Ounce', sign: '', symbol: 'XPD' },
];

export const fiatById: ReadonlyMap<number, Fiat> = new Map(FIATS.map((f) => [f.id, f]));
export const fiatBySymbol: ReadonlyMap<string, Fiat> = new Map(FIATS.map((f) => [f.symbol, f]));
export const USD = fiatById.get(2781) as Fiat;

const FIAT_OCTAVES: readonly Octave[] = [
  { scale: 86_400, amplitude: 0.002 },
  { scale: 2_592_000, amplitude: 0.02 },
  { scale: 31_536_000, amplitude: 0.05 },
];

/** US dollars per unit of `fiat` at Unix second t; the dollar itself is exactly 1. */
export function fiatUsd(fiat: Fiat, t: number): number {
  if (fiat.id === USD.id) return 1;
  return fiat.baseUsd * Math.exp(fractal(fiat.seed, t, FIAT_OCTAVES));
}
