import { z } from 'zod';

import { componentRegistry } from './registry.js';

type JsonObject = Record<string, unknown>;

export const COMPONENT_PREFIX = '#/components/schemas/';

/** Where a request's registered schema points until `settleComponents` names its component. */
const INPUT_PREFIX = '#/components/x-input-schemas/';

const INPUT_SUFFIX = 'Input';

function rendered(io: 'input' | 'output'): Record<string, JsonObject> {
  const { schemas } = z.toJSONSchema(componentRegistry, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    uri: (id) => `${COMPONENT_PREFIX}${id}`,
  });
  const components: Record<string, JsonObject> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    // Components are embedded in the document, so they carry neither a dialect nor an identity of their own.
    const { $schema: _dialect, $id: _id, ...rest } = schema as JsonObject;
    components[id] = rest;
  }
  return components;
}

/**
 * A schema as an operation shows it: a registered one by reference (a request's to the form it is
 * read in, settled by `settleComponents`), any other inline in the form `io` says.
 */
export function schemaRef(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  const id = componentRegistry.get(schema)?.id;
  if (id !== undefined) return { $ref: `${io === 'input' ? INPUT_PREFIX : COMPONENT_PREFIX}${id}` };
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as JsonObject;
  return json;
}

/** Every `$ref` in `value` that starts with `prefix`, by the id after it. */
function refsIn(value: unknown, prefix: string, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) refsIn(item, prefix, found);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string' && item.startsWith(prefix)) found.add(item.slice(prefix.length));
      else refsIn(item, prefix, found);
    }
  }
  return found;
}

/** `roots` and every component they reach through `forms`. */
function reached(roots: Set<string>, forms: Record<string, JsonObject>): Set<string> {
  const seen = new Set<string>();
  const visit = (id: string): void => {
    if (seen.has(id)) return;
    seen.add(id);
    for (const next of refsIn(forms[id], COMPONENT_PREFIX)) visit(next);
  };
  for (const id of roots) visit(id);
  return seen;
}

/** `value` with its `$ref`s that start with `from` pointing at the components `name` gives. */
function pointed<T>(value: T, from: string, name: (id: string) => string): T {
  return JSON.parse(
    JSON.stringify(value, (key, item: unknown) =>
      key === '$ref' && typeof item === 'string' && item.startsWith(from)
        ? `${COMPONENT_PREFIX}${name(item.slice(from.length))}`
        : item,
    ),
  ) as T;
}

/**
 * The components the operations use, each in the form it is used in: a schema that requests carry in its
 * input form (fields with defaults optional), one that responses carry in its output form. One used
 * both ways whose two forms differ appears twice, its input form named `<id>Input`. Nothing unused
 * is listed. Returns the operations (paths, webhooks) with their request references settled, and
 * the components.
 */
export function settleComponents<Operations>(operations: Operations): {
  operations: Operations;
  schemas: Record<string, JsonObject>;
} {
  const outputs = rendered('output');
  const inputs = rendered('input');
  const asOutput = reached(refsIn(operations, COMPONENT_PREFIX), outputs);
  const asInput = reached(refsIn(operations, INPUT_PREFIX), inputs);
  // A component whose input form points at a renamed one differs too: repeat until nothing changes.
  const renamed = new Set<string>();
  const inputName = (id: string) => (renamed.has(id) ? `${id}${INPUT_SUFFIX}` : id);
  const inputForm = (id: string): JsonObject => pointed(inputs[id] ?? {}, COMPONENT_PREFIX, inputName);
  for (let changed = true; changed;) {
    changed = false;
    for (const id of asInput) {
      if (!asOutput.has(id) || renamed.has(id)) continue;
      if (JSON.stringify(inputForm(id)) === JSON.stringify(outputs[id])) continue;
      if (outputs[`${id}${INPUT_SUFFIX}`] !== undefined) throw new Error(`${id}${INPUT_SUFFIX} is a component already`);
      renamed.add(id);
      changed = true;
    }
  }
  const schemas: Record<string, JsonObject> = {};
  for (const [id, output] of Object.entries(outputs)) {
    if (asOutput.has(id)) schemas[id] = output;
    if (asInput.has(id) && (renamed.has(id) || !asOutput.has(id))) schemas[inputName(id)] = inputForm(id);
  }
  return { operations: pointed(operations, INPUT_PREFIX, inputName), schemas };
}
