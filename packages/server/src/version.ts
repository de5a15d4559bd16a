/** Reported in the OpenAPI document and at start-up; kept in step with package.json by the release. */
export const SERVICE_VERSION = '0.2.0';
