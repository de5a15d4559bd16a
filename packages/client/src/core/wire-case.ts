/** `template_id` → `templateId`, at the type level. */
type SnakeToCamel<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<SnakeToCamel<Tail>>}`
  : S;

/** An object type with its top-level wire (snake_case) keys in the library's camelCase; each member of a union alike. */
export type CamelCaseKeys<T> = T extends unknown
  ? { [K in keyof T as K extends string ? SnakeToCamel<K> : K]: T[K] }
  : never;

/**
 * Only top-level keys change case: nested objects of the REST bodies (patient, context, sections)
 * already use the same names in the library and on the wire.
 */
export function toWireKeys(value: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(value).map(([key, entry]) => [key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`), entry]),
  );
}

export function fromWireKeys<T extends object>(value: T): CamelCaseKeys<T> {
  return Object.fromEntries(
    Object.entries(value).map(([key, entry]) => [
      key.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase()),
      entry,
    ]),
  ) as CamelCaseKeys<T>;
}
