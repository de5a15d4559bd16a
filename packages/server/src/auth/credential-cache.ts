import type { Clock } from '../clock.js';
import type { CredentialChanges } from '../store/credential-changes.js';

const MAX_ENTRIES = 10_000;
// A backstop only: every rotation and revocation already empties every process's cache through
// CredentialChanges. This bounds how long a change could go unseen if a notification were lost.
const TTL_MS = 30_000;

interface Entry<Row> {
  row: Row;
  storedAt: number;
}

/**
 * Rows that authentication reads on every request (API keys by secret hash, partners by id, the
 * clinicians widget tokens are minted for), so the hot paths skip the database. The whole cache is
 * dropped whenever stored credentials change anywhere (see CredentialChanges), which keeps
 * revocation immediate; expiry (rotation grace) is still checked on every request against the clock.
 */
export class CredentialCache<Row> {
  readonly #entries = new Map<string, Entry<Row>>();
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

  get(key: string): Row | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (this.clock.now() - entry.storedAt >= TTL_MS) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.row;
  }

  set(key: string, row: Row, versionBeforeRead: number | null): void {
    if (versionBeforeRead === null || this.changes.version() !== versionBeforeRead) return;
    if (this.#entries.size >= MAX_ENTRIES) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(key, { row, storedAt: this.clock.now() });
  }
}
