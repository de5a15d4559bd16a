import { z } from 'zod';
/*
 * Field builders shared by the widget schemas. (Every object schema of the widget contracts uses zod's
 * default, stripping object mode on purpose: EMRs and the widget evolve independently, so a field this
 * version does not know is accepted and dropped rather than refused.)
 */
/** A string that must hold something besides whitespace; the trimmed value is kept. */
export function trimmedText() {
  return z.string().trim().min(1);
}
/**
 * An enum that EMRs may send in any case and with stray spaces (interface: Enum normalization): the
 * value is trimmed and lower-cased first, so `" Female "` validates as `female`.
 */
export function normalizedEnum(values) {
  // trim() and toLowerCase() rewrite the value in place rather than transform it, so the schema still
  // converts to JSON Schema (a string in, the enum out) for the REST endpoints that reuse it.
  return z.string().trim().toLowerCase().pipe(z.enum(values));
}
/** A valid e-mail address, or the empty string an EMR sends when it has none on file. */
export function emailOrEmpty() {
  return z.string().refine((value) => value === '' || z.regexes.email.test(value), {
    error: 'must be a valid e-mail address',
  });
}
/**
 * A finite number of at least zero. postMessage uses structured clone, so NaN and Infinity can arrive
 * even though JSON cannot carry them; zod reports those as "not a number", which reads oddly.
 */
export function nonNegativeNumber() {
  return z
    .number({
      // Other problems, such as a string or a negative number, keep the usual phrasing.
      error: (issue) =>
        typeof issue.input === 'number' && !Number.isFinite(issue.input) ? 'must be a finite number' : undefined,
    })
    .min(0);
}
/** An object whose values are all strings, like PUSH_NOTE.sections. */
export function stringMap() {
  return z.record(z.string(), z.string(), {
    // zod calls it a record; the reader of a WIDGET_ERROR thinks of a plain object.
    error: (issue) => (issue.code === 'invalid_type' && issue.expected === 'record' ? 'must be an object' : undefined),
  });
}
/** Any object of free-form keys and values, kept as given. */
export function freeFormObject() {
  return z.looseObject({});
}
//# sourceMappingURL=fields.js.map
