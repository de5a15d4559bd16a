import * as library from '@chartwright/client';

import scenario from './rest-scenario.cjs';

await scenario.run(library);
