import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Where the secrets the service makes for itself are kept: read once at start, written when one is made. */
export interface GeneratedSecrets {
  /** The secret stored under `name`, storing `generate()` first if there is none. */
  getOrCreate(name: string, generate: () => string): string;
  /** Stores `value` under `name`, replacing what was there (a rotation). */
  set(name: string, value: string): void;
}

/** For an in-memory database: its secrets live and die with the process, as its data does. */
export class MemorySecrets implements GeneratedSecrets {
  readonly #values = new Map<string, string>();

  getOrCreate(name: string, generate: () => string): string {
    let value = this.#values.get(name);
    if (value === undefined) {
      value = generate();
      this.#values.set(name, value);
    }
    return value;
  }

  set(name: string, value: string): void {
    this.#values.set(name, value);
  }
}

const OWNER_ONLY_FILE = 0o600;
const OWNER_ONLY_DIRECTORY = 0o700;
const LOCK_WAIT_MS = 5_000;
const LOCK_RETRY_MS = 10;

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Secrets kept outside the database that holds the patient data, so a copy of the database (a backup,
 * a stolen file) cannot mint widget tokens or forge audit records. One JSON object in one owner-only
 * file; the service and the CLI may both write it, so a write takes a lock file and replaces the file
 * whole (rename), and a reader never sees half of one.
 */
export class KeyFile implements GeneratedSecrets {
  constructor(private readonly path: string) {}

  getOrCreate(name: string, generate: () => string): string {
    const stored = this.read()[name];
    if (stored !== undefined) return stored;
    return this.locked(() => {
      const current = this.read();
      const existing = current[name];
      if (existing !== undefined) return existing;
      const value = generate();
      this.write({ ...current, [name]: value });
      return value;
    });
  }

  set(name: string, value: string): void {
    this.locked(() => this.write({ ...this.read(), [name]: value }));
  }

  /** Every secret in the file; none when it does not exist yet. */
  read(): Record<string, string> {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new Error(`${this.path} is not a key file (a JSON object of named secrets)`);
    }
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  }

  private write(values: Record<string, string>): void {
    const temporary = `${this.path}.${randomBytes(6).toString('hex')}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(values, null, 2)}\n`, { mode: OWNER_ONLY_FILE, flag: 'wx' });
    renameSync(temporary, this.path);
  }

  private locked<T>(run: () => T): T {
    mkdirSync(dirname(this.path), { recursive: true, mode: OWNER_ONLY_DIRECTORY });
    const lock = `${this.path}.lock`;
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        closeSync(openSync(lock, 'wx', OWNER_ONLY_FILE));
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        // A writer that died holding the lock leaves it behind: after the wait, take it over.
        if (Date.now() > deadline) break;
        sleepSync(LOCK_RETRY_MS);
      }
    }
    try {
      return run();
    } finally {
      rmSync(lock, { force: true });
    }
  }
}

/** The configured key file; in memory when there is none (an in-memory database's). */
export function generatedSecrets(keyFile: string | null): GeneratedSecrets {
  return keyFile === null ? new MemorySecrets() : new KeyFile(keyFile);
}
