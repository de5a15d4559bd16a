import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

import { endpoint } from '@chartwright/protocol';

import type { Clock } from '../../clock.js';
import { AppError } from '../../errors.js';
import type { GeneratedSecrets } from '../../secrets/key-file.js';
import { sharedSecret } from '../../secrets/shared-secret.js';
import type { ServiceSecretsRepository } from '../../store/service-secrets.js';

const SECRET_NAME = 'widget_pdf_links';
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;
const WHOLE_NUMBER = /^\d{1,15}$/;

export interface SignedPdfLink {
  url: string;
  /** Epoch ms. */
  expiresAt: number;
}

/**
 * Links that download one revision of a document's PDF without any other credential, so an EMR can
 * fetch what PUSH_DOCUMENT's pdfUrl names. The link carries only the document id, the revision and
 * its expiry (no PHI), signed with HMAC-SHA256 under a key every instance shares: configured, or
 * generated once into the key file (secrets/shared-secret.ts), never into the database.
 */
export class PdfLinks {
  private constructor(
    private readonly key: Buffer,
    private readonly clock: Clock,
    private readonly options: { baseUrl: string; ttlSeconds: number },
  ) {}

  static async open(
    stores: { file: GeneratedSecrets; database: ServiceSecretsRepository; clock: Clock },
    options: { baseUrl: string; ttlSeconds: number; secret: string | null },
  ): Promise<PdfLinks> {
    const secret = await sharedSecret(
      {
        name: SECRET_NAME,
        variable: 'WIDGET_PDF_LINK_SECRET',
        configured: options.secret,
        generate: () => randomBytes(32).toString('base64url'),
      },
      stores,
    );
    return new PdfLinks(Buffer.from(secret, 'utf8'), stores.clock, options);
  }

  private signature(documentId: string, revision: number, expires: number): Buffer {
    return createHmac('sha256', this.key).update(`pdf\n${documentId}\n${revision}\n${expires}`).digest();
  }

  sign(documentId: string, revision: number): SignedPdfLink {
    const expires = Math.floor(this.clock.now() / 1000) + this.options.ttlSeconds;
    const path = endpoint('downloadWidgetDocumentPdf').path.replace('{documentId}', encodeURIComponent(documentId));
    const query = new URLSearchParams({
      revision: String(revision),
      expires: String(expires),
      signature: this.signature(documentId, revision, expires).toString('base64url'),
    });
    return { url: `${this.options.baseUrl}${path}?${query.toString()}`, expiresAt: expires * 1000 };
  }

  /** The revision a link grants; refuses altered or foreign links, then expired ones. */
  verify(documentId: string, query: Readonly<Record<string, unknown>>): { revision: number } {
    const { revision, expires, signature } = query;
    if (
      typeof revision !== 'string' ||
      typeof expires !== 'string' ||
      typeof signature !== 'string' ||
      !WHOLE_NUMBER.test(revision) ||
      !WHOLE_NUMBER.test(expires) ||
      !SIGNATURE.test(signature)
    ) {
      throw new AppError('invalid_pdf_link', 'The PDF link is incomplete: it needs revision, expires and signature.');
    }
    // Compared as text, so two spellings of one signature cannot both pass.
    const expected = this.signature(documentId, Number(revision), Number(expires)).toString('base64url');
    if (!timingSafeEqual(Buffer.from(signature), Buffer.from(expected))) {
      throw new AppError(
        'invalid_pdf_link',
        'The PDF link is not valid: it was altered or not issued by this service.',
      );
    }
    if (this.clock.now() >= Number(expires) * 1000) {
      throw new AppError('pdf_link_expired', 'The PDF link has expired; send the document again for a new one.');
    }
    return { revision: Number(revision) };
  }
}
