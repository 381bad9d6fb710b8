/**
 * The ids the service gives common currencies: an answer asked with convert_id keys its quotes by
 * them, and the text and the kept tables name each by its symbol.
 */
const CURRENCY_IDS: Readonly<Record<string, string>> = {
  '1': 'BTC',
  '1027': 'ETH',
  '2781': 'USD',
  '2787': 'CNY',
  '2790': 'EUR',
  '2791': 'GBP',
  '2796': 'INR',
  '2797': 'JPY',
  '2798': 'KRW',
};

/** "2790" → "EUR"; symbols and unknown ids stay as they are. */
export function currencyLabel(currency: string): string {
  return Object.hasOwn(CURRENCY_IDS, currency) ? (CURRENCY_IDS[currency] as string) : currency;
}
