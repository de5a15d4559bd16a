import { z } from 'zod';
/** Named schemas that the OpenAPI document lists under components. */
export const componentRegistry = z.registry();
//# sourceMappingURL=registry.js.map
