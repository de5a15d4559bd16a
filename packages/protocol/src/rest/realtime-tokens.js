import { z } from 'zod';
import { LIMITS } from '../limits.js';
import { componentRegistry } from './registry.js';
export const createRealtimeTokenRequestSchema = z
  .strictObject({
    expiresInSeconds: z
      .int()
      .min(LIMITS.realtimeTokenMinSeconds)
      .max(LIMITS.realtimeTokenMaxSeconds)
      .optional()
      .describe(`Lifetime in seconds; default ${LIMITS.realtimeTokenDefaultSeconds}.`),
  })
  .register(componentRegistry, { id: 'CreateRealtimeTokenRequest' });
export const realtimeTokenSchema = z
  .object({
    token: z.string().describe('Temporary token, prefix `svc_rt_`; opens the realtime WebSocket only.'),
    wsUrl: z.string().describe('Address of the realtime WebSocket for the key’s environment.'),
    expiresAt: z.string().describe('ISO 8601 expiry timestamp.'),
  })
  .register(componentRegistry, { id: 'RealtimeToken' });
//# sourceMappingURL=realtime-tokens.js.map
