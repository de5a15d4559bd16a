import { z } from 'zod';

/** Named schemas that the OpenAPI document lists under components. */
export const componentRegistry = z.registry<{ id: string; description?: string }>();
