import type { ProjectScope } from '../auth/principal.js';
import type { Database } from '../store/database.js';
import type { Repositories } from '../store/repositories.js';

/** The sockets recording an encounter's audio on this instance. */
export interface LiveAudio {
  stopEncounter(encounterId: string): void;
}

/**
 * Deletion on demand (a note made for the wrong patient, a withdrawn consent): at once and as
 * completely as the retention sweep deletes, freed space given back so no copy stays in the files.
 * Callers check who may delete what; this only deletes. Each method answers whether there was
 * anything to delete.
 */
export class Deletion {
  constructor(
    private readonly deps: {
      repositories: Repositories;
      database: Pick<Database, 'compact'>;
      /** Null where no socket is served (the CLI): the service's sockets stop at their next credential check. */
      liveAudio: LiveAudio | null;
    },
  ) {}

  /** A generated note (a widget encounter's with it), within `scope` when given. */
  note(id: string, scope?: ProjectScope): Promise<boolean> {
    return this.compacted(this.withIdempotencyRecord(id, this.deps.repositories.notes.delete(id, scope)));
  }

  /** A widget encounter's note, only if it is that encounter's. */
  encounterNote(encounterId: string, id: string): Promise<boolean> {
    return this.compacted(
      this.withIdempotencyRecord(id, this.deps.repositories.encounterNotes.delete(encounterId, id)),
    );
  }

  /** A document with every revision, only if it is that encounter's when one is given. */
  document(id: string, encounterId?: string): Promise<boolean> {
    return this.compacted(
      this.withIdempotencyRecord(id, this.deps.repositories.encounterDocuments.delete(id, encounterId)),
    );
  }

  /** A realtime session with its transcript, corrections and speaker roles. */
  realtimeSession(id: string): Promise<boolean> {
    return this.compacted(this.deps.repositories.realtimeSessions.delete(id));
  }

  /** An encounter with everything under it, its recording stopped first. */
  async encounter(id: string): Promise<boolean> {
    this.deps.liveAudio?.stopEncounter(id);
    const { repositories } = this.deps;
    // First, while the encounter still says which notes and documents were made under it.
    await repositories.idempotencyKeys.deleteForEncounter(id);
    return this.compacted(repositories.encounters.deleteWithEverything(id));
  }

  /**
   * A withdrawn consent: recording stops now and no new audio token is minted until consent is
   * given again. What was recorded stays until deleted (the encounter, or its sessions).
   */
  async consent(encounterId: string): Promise<boolean> {
    await this.deps.repositories.realtimeTokens.deleteForEncounter(encounterId);
    this.deps.liveAudio?.stopEncounter(encounterId);
    return this.compacted(this.deps.repositories.encounterConsents.delete(encounterId));
  }

  /**
   * The kept answer to the Idempotency-Key that made the resource holds a copy of it (a note's
   * text): it goes with the resource.
   */
  private async withIdempotencyRecord(resourceId: string, deleting: Promise<boolean>): Promise<boolean> {
    const deleted = await deleting;
    if (deleted) await this.deps.repositories.idempotencyKeys.deleteForResource(resourceId);
    return deleted;
  }

  private async compacted(deleting: Promise<boolean>): Promise<boolean> {
    const deleted = await deleting;
    if (deleted) await this.deps.database.compact();
    return deleted;
  }
}
