export declare const MIXED_CALLS: number;
export declare function mixedCall(i: number): [string, Record<string, unknown>];
