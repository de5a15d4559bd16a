import type { MountWidgetOptions } from '../types.js';
import { widgetLocation, type WidgetLocation } from './widget-location.js';

/**
 * The mistakes a caller (often plain JavaScript) can make in mountWidget's options, all named at
 * once, and where the widget lives when its URL is usable.
 */
export function checkOptions(options: unknown): { problems: string[]; location: WidgetLocation | null } {
  const given = (typeof options === 'object' && options !== null ? options : {}) as Partial<
    Record<keyof MountWidgetOptions, unknown>
  >;
  const problems: string[] = [];
  // nodeType rather than instanceof: a container from another frame's document is an element too.
  if ((given.container as { nodeType?: unknown } | null | undefined)?.nodeType !== 1) {
    problems.push('container: must be a DOM element');
  }
  let location: WidgetLocation | null = null;
  try {
    location = widgetLocation(typeof given.widgetUrl === 'string' ? given.widgetUrl : String(given.widgetUrl));
  } catch (error) {
    problems.push((error as Error).message);
  }
  if (typeof given.getToken !== 'function') problems.push('getToken: must be a function that returns a widget token');
  const patient = (given.patientContext as { patient?: unknown } | null | undefined)?.patient;
  if (typeof patient !== 'object' || patient === null) problems.push('patientContext.patient: is required');
  for (const name of ['onNote', 'onDocument', 'onSessionStarted', 'onError', 'onReady', 'onMessage'] as const) {
    if (given[name] !== undefined && typeof given[name] !== 'function') problems.push(`${name}: must be a function`);
  }
  return { problems, location };
}
