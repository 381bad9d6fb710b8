/**
 * A kept result's id and its table's name. The id is the hash of whose it is, the tool, the
 * arguments and when the service answered: the same answer (a cached one asked again) is the same
 * kept result, kept once. A table's name is short and says what it holds: the tool's subject and
 * four characters of the id (`ohlcv_3f9k`), longer only where the owner already has that name.
 */
import { createHash } from 'node:crypto';
import { canonicalParams } from '../kit/canonical.js';

export function keptId(
  owner: string,
  tool: string,
  params: Record<string, unknown>,
  fetchedAt: number,
): string {
  return createHash('sha256')
    .update(`${owner}\0${tool}\0${canonicalParams(params)}\0${fetchedAt}`)
    .digest('base64url')
    .slice(0, 16);
}

/** What a tool's table is named after: its name without the verb and the words every tool shares. */
export function tablePrefix(tool: string): string {
  return tool
    .replace(/^(get|list)_/, '')
    .replace(/^cryptocurrency_/, '')
    .replace(/_(latest|historical)$/, '');
}

/** Lengths of the name's id part, tried in turn where the owner has the shorter name already. */
export const SUFFIX_LENGTHS = [4, 6, 8, 12] as const;

/** The table's name with `length` characters of the id (lower case letters and digits). */
export function tableName(tool: string, id: string, length: number): string {
  const digits = BigInt(`0x${Buffer.from(id, 'base64url').toString('hex')}`).toString(36);
  return `${tablePrefix(tool)}_${digits.padStart(length, '0').slice(0, length)}`;
}
