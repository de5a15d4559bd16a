import type { ESLint } from 'eslint';

export interface Boundary {
  from: RegExp;
  to: RegExp;
  tests: boolean;
  message: string;
}

export const BOUNDARIES: readonly Boundary[];
export function violation(file: string, specifier: string): string | null;
export const importBoundaries: ESLint.Plugin;
