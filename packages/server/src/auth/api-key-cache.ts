import type { Clock } from '../clock.js';
import type { ApiKeyRow } from '../store/api-keys.js';
import type { CredentialChanges } from '../store/credential-changes.js';

const MAX_ENTRIES = 10_000;
// A backstop only: every rotation and revocation already empties every process's cache through
// CredentialChanges. This bounds how long a change could go unseen if a notification were lost.
const TTL_MS = 30_000;

interface Entry {
  row: ApiKeyRow;
  storedAt: number;
}

/**
 * Key rows by secret hash, so the hot path of every REST request skips the database. The whole
 * cache is dropped whenever stored credentials change anywhere (see CredentialChanges), which keeps
 * revocation immediate; expiry (rotation grace) is still checked on every request against the clock.
 */
export class ApiKeyCache {
  readonly #entries = new Map<string, Entry>();
  #version: number | null = null;

  constructor(
    private readonly changes: CredentialChanges,
    private readonly clock: Clock,
  ) {}

  /**
   * The current change version, after dropping everything cached under an older one. Pass it to
   * `set` so a row read while a change happened is never cached.
   */
  sync(): number | null {
    const version = this.changes.version();
    if (version === null || version !== this.#version) {
      this.#entries.clear();
      this.#version = version;
    }
    return version;
  }

  get(secretHash: string): ApiKeyRow | undefined {
    const entry = this.#entries.get(secretHash);
    if (entry === undefined) return undefined;
    if (this.clock.now() - entry.storedAt >= TTL_MS) {
      this.#entries.delete(secretHash);
      return undefined;
    }
    return entry.row;
  }

  set(secretHash: string, row: ApiKeyRow, versionBeforeRead: number | null): void {
    if (versionBeforeRead === null || this.changes.version() !== versionBeforeRead) return;
    if (this.#entries.size >= MAX_ENTRIES) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(secretHash, { row, storedAt: this.clock.now() });
  }
}
