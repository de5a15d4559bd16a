export interface LintProblem {
  readonly ruleId: string;
  readonly severity: 'error' | 'warn';
  readonly message: string;
  /** Where in the document: a JSON pointer such as `#/paths/~1healthz/get/responses`. */
  readonly pointer: string;
}

/** Every problem Redocly CLI finds in the OpenAPI document at `documentPath` (redocly.yaml's rules). */
export function lintOpenApi(documentPath: string): LintProblem[];
