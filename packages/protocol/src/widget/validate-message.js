import { z } from 'zod';
import { formatDetail, validate } from '../validation.js';
import { EMR_TO_WIDGET_MESSAGE_TYPES, emrToWidgetMessageSchema } from './emr-messages.js';
import { WIDGET_TO_EMR_MESSAGE_TYPES, widgetToEmrMessageSchema } from './widget-messages.js';
// Checked first, so a payload without a usable `type` gets one clear entry instead of a union error.
const envelopeSchema = z.object({ type: z.string() });
/**
 * One `<field path>: <problem>` entry. Problems with the payload as a whole have no field path, so
 * "message" names it. EMRs split an entry at its first colon, so a colon inside a path — possible
 * only in a free-form key such as a PUSH_NOTE.sections key — is written as the JSON escape \u003a.
 */
function entry(detail) {
  const path = detail.path === '' ? 'message' : detail.path.replaceAll(':', '\\u003a');
  return formatDetail({ path, message: detail.message });
}
function quoted(type) {
  return JSON.stringify(type.length > 64 ? `${type.slice(0, 64)}…` : type);
}
function validateMessage(schema, knownTypes, input) {
  const envelope = validate(envelopeSchema, input);
  if (!envelope.ok) return { ok: false, type: null, entries: envelope.details.map(entry) };
  const { type } = envelope.value;
  if (!knownTypes.includes(type)) {
    const expected = knownTypes.join(', ');
    return { ok: false, type, entries: [`type: unknown message type ${quoted(type)}, expected one of ${expected}`] };
  }
  const result = validate(schema, input);
  return result.ok ? { ok: true, message: result.value } : { ok: false, type, entries: result.details.map(entry) };
}
/**
 * Never throws: postMessage data is a structured clone, but these validators are also called directly,
 * and an input whose getters throw (a Proxy, say) must still yield an answer the caller can report.
 */
function safely(run) {
  try {
    return run();
  } catch {
    return { ok: false, type: null, entries: ['message: could not be read'] };
  }
}
/** Validates and normalizes a message the EMR posted to the widget. */
export function validateEmrToWidgetMessage(input) {
  return safely(() => validateMessage(emrToWidgetMessageSchema, EMR_TO_WIDGET_MESSAGE_TYPES, input));
}
/** Validates a message the widget posted to the EMR; EMRs use it on events from the widget's origin. */
export function validateWidgetToEmrMessage(input) {
  return safely(() => validateMessage(widgetToEmrMessageSchema, WIDGET_TO_EMR_MESSAGE_TYPES, input));
}
//# sourceMappingURL=validate-message.js.map
