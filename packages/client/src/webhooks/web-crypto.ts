/**
 * Web Crypto's SubtleCrypto: the global one (browsers, Node 20+), else Node 18's from node:crypto,
 * loaded on first use so browser bundles never contain it (the build stubs it for browsers).
 */
export async function subtleCrypto(): Promise<SubtleCrypto> {
  const global = globalThis as { crypto?: Crypto };
  if (global.crypto?.subtle !== undefined) return global.crypto.subtle;
  const { webcrypto } = await import('node:crypto');
  return webcrypto.subtle as SubtleCrypto;
}
