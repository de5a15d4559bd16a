export { verified, verifyGenerated, type VerifiedProducerOptions } from './producer.js';
export { verifyNote, type VerifiedNote, type VerifyOptions } from './verify.js';
export { omissionsOf, clinicallyRelevant } from './omissions.js';
export { noteWarnings } from './warnings.js';
