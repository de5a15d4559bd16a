/** A mistake in how a command was called (exit code 2), as opposed to a failure doing it (1). */
export class UsageError extends Error {}

/**
 * The value of the option at `argv[index]` (`--name value`); a missing value, or another option
 * where the value should be, is a usage error naming the option.
 */
export function optionValue(argv: readonly string[], index: number): string {
  const next = argv[index + 1];
  if (next === undefined || next.startsWith('--')) throw new UsageError(`${argv[index] ?? ''} needs a value`);
  return next;
}
