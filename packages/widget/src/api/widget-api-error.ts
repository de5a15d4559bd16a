import { ServiceCallError } from '@chartwright/protocol';

/** A widget API call that failed: the code, message and details of the service's error envelope, or a transport code. */
export class WidgetApiError extends ServiceCallError {
  override readonly name = 'WidgetApiError';
}
