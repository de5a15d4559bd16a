// The REST surface (and the management client) exercised by the INSTALLED package (installed-package.int.test.ts), on Node 18
// and 20, once through `import` and once through `require` (rest-esm.mjs, rest-cjs.cjs). Prints one JSON line for the test to check.
'use strict';

async function outcome(promise) {
  try {
    return { value: await promise };
  } catch (error) {
    return { error };
  }
}

function describeError(error, library) {
  return {
    name: error.constructor.name,
    isChartwrightError: error instanceof library.ChartwrightError,
    isAuthenticationError: error instanceof library.AuthenticationError,
    isPermissionDeniedError: error instanceof library.PermissionDeniedError,
    status: error.status,
    code: error.code,
    hasRequestId: typeof error.requestId === 'string',
  };
}

async function run(library) {
  const baseUrl = process.env.CHARTWRIGHT_BASE_URL;
  const apiKey = process.env.CHARTWRIGHT_API_KEY;
  const client = new library.Chartwright({ apiKey, baseUrl });

  const templates = await client.templates.list();
  const note = await client.notes.create({
    templateId: 'soap',
    conversationText: 'Doctor: What brings you in? Patient: A cough for a week.',
  });
  const concise = await client.notes.create({
    templateId: 'soap',
    segments: [
      { speaker: 'clinician', text: 'Any fever?' },
      { speaker: 'patient', text: 'No, a cough for a week.', words: [{ word: 'no', confidence: 0.4 }] },
    ],
    style: 'concise',
  });
  const withFacts = await client.notes.retrieve(concise.id, { include: ['facts'] });
  const unknownKey = await outcome(
    new library.Chartwright({ apiKey: 'sk_test_NeverIssuedByThisService000', baseUrl, maxRetries: 0 }).templates.list(),
  );

  const { token } = await client.realtime.tokens.create({ expiresInSeconds: 60 });
  let fetchCalls = 0;
  const temporary = new library.Chartwright({
    apiKey: token,
    baseUrl,
    fetch: (...args) => {
      fetchCalls += 1;
      return fetch(...args);
    },
  });
  const denied = await outcome(temporary.notes.create({ templateId: 'soap', conversationText: 'Doctor: Hello.' }));

  const management = new library.ManagementClient({ adminToken: process.env.CHARTWRIGHT_ADMIN_TOKEN, baseUrl });
  const projects = await management.projects.list();
  const auditPage = await management.auditEvents.list({ limit: 1 });
  const projectKey = await outcome(
    Promise.resolve().then(() => new library.ManagementClient({ adminToken: apiKey, baseUrl })),
  );

  process.stdout.write(
    `${JSON.stringify({
      node: process.version,
      templateIds: templates.map((template) => template.id),
      note: { object: note.object, templateId: note.templateId, hasCreatedAt: typeof note.createdAt === 'string' },
      concise: {
        style: concise.style,
        flags: concise.flags.map((flag) => flag.code),
        verified: concise.verification !== null,
        facts: withFacts.facts.length > 0,
      },
      unknownKey: describeError(unknownKey.error, library),
      temporaryToken: { ...describeError(denied.error, library), fetchCalls },
      management: {
        projectIds: projects.map((project) => project.id),
        auditPage: { records: auditPage.data.length, hasNextCursor: typeof auditPage.nextCursor === 'string' },
        projectKey: describeError(projectKey.error, library),
      },
    })}\n`,
  );
}

module.exports = { run };
