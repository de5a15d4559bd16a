/** Renders a zod path the way a developer writes it: `sections[2].key`. */
export function formatPath(path) {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out;
}
function describeType(input) {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'an array';
  return typeof input === 'object' ? 'an object' : `a ${typeof input}`;
}
function bound(origin, limit, exclusive, side) {
  const relation = side === 'min' ? (exclusive ? 'greater than' : 'at least') : exclusive ? 'less than' : 'at most';
  const plural = Number(limit) === 1 ? '' : 's';
  if (origin === 'string') return `must be ${relation} ${limit} character${plural} long`;
  if (origin === 'array' || origin === 'set') return `must have ${relation} ${limit} item${plural}`;
  return `must be ${relation} ${limit}`;
}
/**
 * One phrase per kind of problem, written to follow a field path ("expiresInSeconds: must be at
 * most 3600"). Schemas that need a more specific phrase set their own message, which wins.
 */
export const describeIssue = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      if (issue.expected === 'int') return 'must be an integer';
      return `must be ${issue.expected === 'object' || issue.expected === 'array' ? 'an' : 'a'} ${issue.expected}, not ${describeType(issue.input)}`;
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'must not be empty';
      return bound(issue.origin, issue.minimum, issue.inclusive === false, 'min');
    case 'too_big':
      return bound(issue.origin, issue.maximum, issue.inclusive === false, 'max');
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}`
        : `must be one of ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      if (issue.format === 'email') return 'must be a valid e-mail address';
      if (issue.format === 'url') return 'must be a valid URL';
      return `must be a valid ${issue.format}`;
    case 'unrecognized_keys':
      return 'is not a known field';
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'invalid_union':
    case 'invalid_key':
    case 'invalid_element':
    case 'custom':
      // zod's own wording (or the schema's custom message) is already specific enough.
      return undefined;
  }
};
/** Flattens zod issues into `{ path, message }` entries, one per problem, in schema order. */
export function issuesToDetails(issues) {
  return issues.flatMap((issue) =>
    // zod reports all unknown keys of an object as one issue; a developer wants each key named.
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ path: formatPath([...issue.path, key]), message: issue.message }))
      : [{ path: formatPath(issue.path), message: issue.message }],
  );
}
/** `path: message`, or just the message for a problem with the whole value. */
export function formatDetail(detail) {
  return detail.path === '' ? detail.message : `${detail.path}: ${detail.message}`;
}
/** Validates with our phrasing; never throws on any input. */
export function validate(schema, input) {
  const result = schema.safeParse(input, { error: describeIssue });
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, details: issuesToDetails(result.error.issues) };
}
//# sourceMappingURL=validation.js.map
