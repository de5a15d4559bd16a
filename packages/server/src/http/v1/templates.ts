import { endpoint } from '@chartwright/protocol';
import type { FastifyInstance } from 'fastify';

import { CURATED_TEMPLATES } from '../../notes/templates.js';
import { fastifyPath } from '../paths.js';

export function templatesRoutes(app: FastifyInstance): void {
  app.get(fastifyPath(endpoint('listTemplates')), () => CURATED_TEMPLATES);
}
