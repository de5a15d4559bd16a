import { z } from 'zod';
import { componentRegistry } from './registry.js';
export const healthSchema = z
  .object({
    status: z.enum(['ok', 'unavailable']),
    checks: z.record(z.string(), z.enum(['ok', 'unavailable'])).optional(),
  })
  .register(componentRegistry, { id: 'Health' });
//# sourceMappingURL=health.js.map
