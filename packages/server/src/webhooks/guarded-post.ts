import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

import { addressRefusal, literalAddress, type WebhookPolicy } from './address-policy.js';

/**
 * Why an attempt got no answer; a receiver that answered, whatever the status, has `status`.
 * `not_sent`: there was nothing left to send (the note passed its retention).
 */
export type DeliveryFailure = 'timeout' | 'connection_failed' | 'address_refused' | 'tls_failed' | 'not_sent';

export interface PostOutcome {
  /** The HTTP status answered; null when there was no answer. */
  status: number | null;
  failure: DeliveryFailure | null;
  durationMs: number;
}

export interface PostOptions {
  policy: WebhookPolicy;
  timeoutMs: number;
  headers: Readonly<Record<string, string>>;
}

/** Refused by the SSRF guard: the name resolved (or the URL pointed) only to addresses it may not call. */
class AddressRefusedError extends Error {
  readonly code = 'ADDRESS_REFUSED';
}

class TimeoutError extends Error {
  readonly code = 'DELIVERY_TIMEOUT';
}

/**
 * Resolves like the system would, then keeps only the addresses the policy allows: the socket can
 * only connect to an address judged at this moment, which is what defeats DNS rebinding.
 */
function guardedLookup(policy: WebhookPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error !== null) {
        callback(error, '', 0);
        return;
      }
      const allowed = addresses.filter((entry) => addressRefusal(entry.address, policy) === null);
      const [first] = allowed;
      if (first === undefined) {
        callback(new AddressRefusedError(`${hostname} resolves only to addresses the service does not call`), '', 0);
      } else if (options.all === true) {
        (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, allowed);
      } else {
        callback(null, first.address, first.family);
      }
    });
  };
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_|HOSTNAME_MISMATCH)/;

function failureOf(error: unknown): DeliveryFailure {
  const code = (error as { code?: unknown }).code;
  if (error instanceof AddressRefusedError) return 'address_refused';
  if (error instanceof TimeoutError) return 'timeout';
  return typeof code === 'string' && TLS_CODE.test(code) ? 'tls_failed' : 'connection_failed';
}

/** The answer's body is read and dropped: only its status is kept, never what a receiver says. */
function drain(response: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    response.on('data', () => undefined);
    response.once('end', resolve);
    response.once('error', () => resolve());
    response.once('close', resolve);
  });
}

/**
 * POSTs a JSON body once: no redirect followed (a 3xx is an answer like any other), no connection
 * kept, the whole exchange bounded by the timeout, and every connection address checked against
 * the policy — an address written in the URL here, a resolved one in the lookup.
 */
export async function guardedPost(url: string, body: string, options: PostOptions): Promise<PostOutcome> {
  const started = performance.now();
  const done = (status: number | null, failure: DeliveryFailure | null): PostOutcome => ({
    status,
    failure,
    durationMs: Math.round(performance.now() - started),
  });
  const target = new URL(url);
  const literal = literalAddress(target.hostname);
  if (literal !== null && addressRefusal(literal, options.policy) !== null) return done(null, 'address_refused');
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<PostOutcome>((resolve) => {
    const request = send(target, {
      method: 'POST',
      agent: false,
      lookup: guardedLookup(options.policy),
      headers: { ...options.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    const timer = setTimeout(() => request.destroy(new TimeoutError('no answer in time')), options.timeoutMs);
    request.once('response', (response) => {
      void drain(response).then(() => {
        clearTimeout(timer);
        resolve(done(response.statusCode ?? null, null));
      });
    });
    request.once('error', (error) => {
      clearTimeout(timer);
      resolve(done(null, failureOf(error)));
    });
    request.end(body);
  });
}
