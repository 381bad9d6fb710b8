/** The header the service reads the API key from (the spec's name; configurable on both sides). */
export const DEFAULT_KEY_HEADER = 'X-SVC_PRO_API_KEY';
