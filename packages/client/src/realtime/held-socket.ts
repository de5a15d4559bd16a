import type { WebSocketEventMapLike, WebSocketLike } from '../core/context.js';

type HeldType = 'message' | 'close' | 'error';
type Listener = (event: unknown) => void;

const HELD: readonly HeldType[] = ['message', 'close', 'error'];

const isHeld = (type: string): type is HeldType => (HELD as readonly string[]).includes(type);

/**
 * An open socket whose frames, close and errors are kept from the moment it opened until the
 * session listens. The `ws` package delivers a frame the service sends right after the upgrade (a
 * refusal for capacity) in the same tick as `open`, before the promise handing the socket over has
 * settled: without this, the refusal was lost and the client saw only a bare close (1013).
 * What was kept is delivered a microtask after the first listener is added, so the session has
 * taken the socket by then, and before anything that arrives later.
 */
class HeldSocket implements WebSocketLike {
  readonly #socket: WebSocketLike;
  readonly #listeners = new Map<HeldType, Set<Listener>>();
  #held: { type: HeldType; event: unknown }[] | null = [];
  #flushing = false;

  constructor(socket: WebSocketLike) {
    this.#socket = socket;
    for (const type of HELD) {
      this.#listeners.set(type, new Set());
      socket.addEventListener(type, (event: unknown) => {
        if (this.#held === null) this.#deliver(type, event);
        else this.#held.push({ type, event });
      });
    }
  }

  get binaryType(): string {
    return this.#socket.binaryType;
  }

  set binaryType(value: string) {
    this.#socket.binaryType = value;
  }

  get readyState(): number {
    return this.#socket.readyState;
  }

  get protocol(): string {
    return this.#socket.protocol;
  }

  get bufferedAmount(): number {
    return this.#socket.bufferedAmount;
  }

  send(data: string | ArrayBuffer | ArrayBufferView): void {
    this.#socket.send(data);
  }

  close(code?: number, reason?: string): void {
    this.#socket.close(code, reason);
  }

  addEventListener<K extends keyof WebSocketEventMapLike>(
    type: K,
    listener: (event: WebSocketEventMapLike[K]) => void,
  ): void {
    if (!isHeld(type)) {
      this.#socket.addEventListener(type, listener);
      return;
    }
    this.#listeners.get(type)?.add(listener as Listener);
    if (this.#flushing) return;
    this.#flushing = true;
    queueMicrotask(() => {
      const held = this.#held ?? [];
      this.#held = null;
      for (const { type: heldType, event } of held) this.#deliver(heldType, event);
    });
  }

  removeEventListener<K extends keyof WebSocketEventMapLike>(
    type: K,
    listener: (event: WebSocketEventMapLike[K]) => void,
  ): void {
    if (isHeld(type)) this.#listeners.get(type)?.delete(listener as Listener);
    else this.#socket.removeEventListener(type, listener);
  }

  #deliver(type: HeldType, event: unknown): void {
    for (const listener of this.#listeners.get(type) ?? []) listener(event);
  }
}

export const holdEvents = (socket: WebSocketLike): WebSocketLike => new HeldSocket(socket);
