/** A small typed event emitter for recognizer streams (Node's EventEmitter is untyped here). */
import type { RecognizerEventName, RecognizerEvents } from './recognizer.js';

type Listener<E extends RecognizerEventName> = (payload: RecognizerEvents[E]) => void;

export class RecognizerEmitter {
  private readonly listeners: { [E in RecognizerEventName]: Set<Listener<E>> } = {
    partial: new Set(),
    final: new Set(),
    committed: new Set(),
    error: new Set(),
  };

  on<E extends RecognizerEventName>(event: E, listener: Listener<E>): this {
    (this.listeners[event] as Set<Listener<E>>).add(listener);
    return this;
  }

  off<E extends RecognizerEventName>(event: E, listener: Listener<E>): this {
    (this.listeners[event] as Set<Listener<E>>).delete(listener);
    return this;
  }

  protected emit<E extends RecognizerEventName>(event: E, payload: RecognizerEvents[E]): void {
    for (const listener of this.listeners[event] as Set<Listener<E>>) listener(payload);
  }
}
