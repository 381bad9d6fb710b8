/**
 * Parameter schemas and credit rules of the listed endpoints the sandbox serves but the catalog
 * does not define as tools yet (listed-endpoints.md §9, §15), built from the catalog's shared pieces.
 */
import { z } from 'zod';
import { perCall } from '../catalog/credits.js';
import {
  convertExclusive,
  convertIdParam,
  convertParam,
  enumParam,
  intParam,
  namesListParam,
  paramsObject,
  symbolListParam,
  timeParam,
} from '../catalog/params.js';

const MAP_AUX = ['platform', 'first_historical_data', 'last_historical_data', 'is_active', 'status'] as const;

/** §15: current documentation says no credit is needed (older said 1). */
export const MAP_CREDITS = perCall(0);
/** §9: 1 per call + 1 per convert beyond the first. */
export const PRICE_CONVERSION_CREDITS = perCall(1, { convert: true });

/** §15 GET /v1/cryptocurrency/map. */
export const cryptocurrencyMapInput = paramsObject({
  listing_status: namesListParam(
    ['active', 'inactive', 'untracked'],
    'Which listing states; default active.',
  ),
  start: intParam(1, undefined, '1-based offset, minimum 1; default 1.').default(1),
  limit: intParam(1, 5000, 'Number of entries, 1 to 5000; default all.').optional(),
  sort: enumParam(['id', 'svc_rank'], 'Order of the list; default id.').default('id'),
  symbol: symbolListParam
    .optional()
    .describe('Only these symbols, comma-separated; the other options are then ignored.'),
  aux: namesListParam(MAP_AUX, 'Supplemental fields; default all but status.'),
});

/** §9 GET /v2/tools/price-conversion. */
export const priceConversionInput = paramsObject(
  {
    amount: z
      .number()
      .min(1e-8)
      .max(1e12)
      .describe('Amount to convert, 0.00000001 to 1000000000000; required.'),
    id: z
      .string()
      .max(10, 'must be one numeric id of at most 10 digits, e.g. "1"')
      .regex(/^\d+$/, { message: 'must be one numeric id, e.g. "1"' })
      .optional()
      .describe('Id of the currency to convert from (crypto or fiat); send id or symbol.'),
    symbol: z
      .string()
      .max(20, 'must be one symbol of at most 20 characters, e.g. "BTC"')
      .regex(/^[0-9A-Za-z$@-]+$/, { message: 'must be one symbol, e.g. "BTC"' })
      .optional()
      .describe('Symbol of the currency to convert from (crypto or fiat); send id or symbol.'),
    time: timeParam('Historical rate at this time, limited by the plan; default latest'),
    convert: convertParam(120),
    convert_id: convertIdParam(120),
  },
  convertExclusive,
  (value, add) => {
    if ((value.id === undefined) === (value.symbol === undefined)) {
      add({ path: value.id === undefined ? 'id' : 'symbol', message: 'send exactly one of id or symbol' });
    }
  },
);
