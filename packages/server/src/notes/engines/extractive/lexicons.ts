/**
 * Hand-written cue lexicons of the extractive engine. They were drawn up from clinical note
 * conventions and by studying how the ACI-Bench training dialogues phrase each part of a visit
 * (the cue phrases only; no text of the data set is reproduced). Entries are lower-case and matched
 * on word boundaries against cleaned, lower-cased speech.
 */

/** Disfluencies removed wherever they occur: they carry nothing a note should keep. */
const FILLER_WORDS: ReadonlySet<string> = new Set([
  'um',
  'umm',
  'uh',
  'uhm',
  'hmm',
  'hm',
  'mm',
  'mhm',
  'mm-hmm',
  'uh-huh',
  'er',
  'erm',
  'ah',
  'basically',
  'literally',
]);

/** A hesitation typed as long as it was held: "hmmm", "ummm", "uhhh", "ahh". */
const HELD_FILLER = /^(?:h+m+|u+m+|u+h+m*|e+r+m*|a+h+)$/;

export function isFillerWord(word: string): boolean {
  return FILLER_WORDS.has(word) || HELD_FILLER.test(word);
}

/** Multi-word fillers removed wherever they occur. */
export const FILLER_PHRASES: readonly string[] = [
  'you know what i mean',
  'you know',
  'i mean',
  'kind of',
  'kinda',
  'sort of',
  'you see',
  'let me see',
  'go ahead and',
  'if you will',
  'or something like that',
  'or something',
  'i guess',
];

/**
 * Words that open a spoken sentence without adding to it ("okay so", "yeah", "well", "alright").
 * Stripped from the start of a statement, repeatedly.
 */
export const LEADING_MARKERS: readonly string[] = [
  // The pseudo-cleft that announces a decision ("what we are going to do is start …") or a name.
  'what we are going to do is',
  'what i am going to do is',
  'what we will do is',
  'what i will do is',
  'what i would like to do is',
  'what we would like to do is',
  'what i want to do is',
  'what we want to do is',
  'what we have to do is',
  'what we need to do is',
  'what we call',
  'first off',
  'first of all',
  'oh my gosh',
  'my gosh',
  'oh my god',
  'all right',
  'and then',
  'i see',
  'got it',
  'i am sorry',
  'sorry',
  'excuse me',
  'okay',
  'ok',
  'alright',
  'so',
  'well',
  'now',
  'yeah',
  'yes',
  'yep',
  'yup',
  'and',
  'but',
  'right',
  'sure',
  'great',
  'good',
  'perfect',
  'nice',
  'wow',
  'gosh',
  'hey',
  'hi',
  'hello',
  'oh',
  'gotcha',
  'absolutely',
  'excellent',
  'awesome',
  'wonderful',
  'cool',
  'fine',
  'also',
  'anyway',
  'anyways',
  'actually',
  'um',
  'uh',
  'like',
  'just',
  'then',
];

/** Tag questions and sign-offs at the end of a spoken sentence ("…, okay ?"). */
export const TRAILING_MARKERS: readonly string[] = [
  'does that sound good',
  'does that sound okay',
  'how does that sound',
  'is that okay',
  'is that alright',
  'is that right',
  'is that correct',
  'sound good',
  'sounds good',
  'all right',
  'you know',
  'okay',
  'ok',
  'alright',
  'right',
  'correct',
  'yeah',
  'as well',
  'too',
  'so',
  'and',
  'but',
  'or',
  'though',
  'anyway',
];

/**
 * Statements with any of these are conversation management or small talk, never note content:
 * greetings, thanks, the voice assistant being addressed ("hey dragon …"), pleasantries.
 */
export const SMALL_TALK_PATTERNS: readonly RegExp[] = [
  /\b(?:hey|hi|okay|ok) (?:dragon|dax)\b/,
  /\bdragon\b/,
  /\b(?:finalize|end) the (?:note|recording)\b/,
  /^(?:hi|hello|hey|good (?:morning|afternoon|evening))\b(?!.*\b(?:pain|since|history)\b)/,
  // Announcing the exam is not a finding.
  /\b(?:we will|let's|let us|i am going to|i'm gonna|i will|i want to|i would like to|let me) (?:just )?(?:do|perform|take|have) (?:a|my|the|your) (?:quick |brief |little |focused )?(?:physical )?(?:exam|examination|look)\b(?!.{0,20}\b(?:show|reveal|normal|tender)\w*)/,
  /\bhow are you(?: doing)?(?: today)?$/,
  /\b(?:nice|good|great|pleasure) (?:to )?(?:meet|see|seeing) you\b/,
  /\b(?:thank you|thanks)\b(?!.*\b(?:pain|medication|mg)\b)/,
  /\b(?:bye|goodbye|take care|have a (?:good|great|nice))\b/,
  /\bany (?:other )?questions\b/,
  /\bwhat (?:kind of |other )?questions\b/,
  /\bquestions (?:or concerns )?for me\b/,
  /\bi(?:'ll| will) (?:be in touch|see you)\b(?!.*\b(?:weeks?|months?|days?)\b)/,
  /\bweather\b/,
  /\bfavou?rite\b/,
  /\b(?:weekend|vacation|holiday)s?\b(?!.*\b(?:pain|injur|fell|hurt)\w*\b)/,
  /\b(?:football|baseball|basketball|hockey|yankees|fan of)\b/,
  /\bi(?: a|')m (?:glad|happy|sorry) (?:to hear|that)\b/,
  /\b(?:that's|that is) (?:great|good|awesome|wonderful|fantastic|terrible|too bad)$/,
  /\bhow (?:does|did) that sound\b/,
  /\bmakes sense\b/,
  /\bsounds (?:good|great|like a plan)\b/,
  /\bdo you (?:understand|have any)\b/,
  /\blet me (?:know|ask)\b/,
  /\btell dax\b/,
  /\bthe nurse told you\b/,
  /\bnext patient is\b/,
];

/** The kinds of content a note section can hold; templates' sections are mapped onto these. */
export const KINDS = [
  'chief_complaint',
  'hpi',
  'past_history',
  'medications',
  'allergies',
  'family_history',
  'social_history',
  'ros',
  'vitals',
  'exam',
  'results',
  'assessment',
  'plan',
  'follow_up',
] as const;
export type Kind = (typeof KINDS)[number];

/**
 * Cue patterns that put a statement in a kind whatever the phase of the visit. Checked in this
 * order; the first kind whose pattern matches wins (allergies before medications, so "allergic to
 * penicillin" is not a medication).
 */
export const KIND_CUES: readonly (readonly [Kind, RegExp])[] = [
  // Allergies to something (drugs, foods), not seasonal allergies, which are a symptom.
  [
    'allergies',
    /\b(?:allerg(?:y|ies|ic) (?:to|from)|(?:drug|medication|food|known|any) allerg(?:y|ies)|allergic reaction|anaphyla\w*|hives? (?:from|with|to))\b/,
  ],
  [
    'family_history',
    /\b(?:family history|runs in (?:the|my|your) family|(?:my|your|her|his) (?:mom|mother|dad|father|sister|brother|grandmother|grandfather|grandma|grandpa|aunt|uncle|parents|siblings?) (?:has|had|have|was|were|died|passed)|(?:mom|mother|dad|father|sister|brother|grandmother|grandfather) (?:has|had|with|died of|passed away))\b/,
  ],
  [
    'social_history',
    /\b(?:smok(?:e|es|ed|er|ing)|cigarettes?|tobacco|vap(?:e|ing)|alcohol|drinks? (?:a|per|on)|beers?|wine|marijuana|cannabis|recreational drugs?|illicit|(?:i|she|he|you) (?:work|worked) (?:as|at|in|for)|(?:my|your) (?:job|work)\b|retired|occupation|(?:live|lives|living) (?:with|alone|in)|married|divorced|widowed|exercis(?:e|es|ing)|hik(?:e|es|ing)|runn?ing|gym|diet(?:ary)?\b)/,
  ],
  [
    'vitals',
    /\b(?:vitals?|vital signs|blood pressure(?: today| is| was| here)|heart rate|pulse (?:is|was|ox)|temperature (?:is|was|of)|(?:oxygen|o2) sat\w*|respiratory rate|bmi\b|(?:your|her|his) weight (?:is|today))/,
  ],
  [
    'results',
    /\b(?:x-?rays?|mri|ct scan|cat scan|ct of|ultrasound|echocardiogram|echo|ekg|ecg|electrocardiogram|labs?|lab work|blood work|bloodwork|results?|a1c|lipid panel|cholesterol (?:was|is|level)|cbc|metabolic panel|urinalysis|culture|biopsy|pathology|imaging|scan|stress test|pft|spirometry|mammogram|colonoscopy (?:showed|was)|came back|showed|shows|revealed|demonstrat\w+)\b/,
  ],
  [
    'follow_up',
    /\b(?:follow(?:-| )?up|come back|see you (?:back |again )?in|return (?:to clinic|in)|check back|recheck (?:in|you)|next (?:visit|appointment)|in (?:\w+ )?(?:weeks?|months?) (?:time|to see)|schedule (?:a|an|your) (?:follow|appointment))\b/,
  ],
  [
    'medications',
    /\b(?:mg|milligrams?|mcg|micrograms?|units? of|tablets?|pills?|capsules?|inhaler|(?:taking|take|takes|took|on) (?:the |your |my |her |his )?(?:\w+ )?(?:medications?|meds|medicine)|prescri(?:be|bed|ption)s?|refills?|dose|dosage|twice a day|once a day|three times a day|as needed|daily|nightly|every (?:morning|night|day))\b/,
  ],
  [
    'past_history',
    /\b(?:history of|diagnosed with|(?:had|have had|underwent) (?:a |an |my |her |his )?(?:\w+ )?(?:surgery|operation|replacement|removal|removed|repair|procedure|bypass|stent)|surgical history|medical history|years ago (?:i|she|he|you) had|chronic|hospitali[sz]ed)\b/,
  ],
];

/** Clinician phrases that open the examination part of a visit. */
export const EXAM_PHASE_CUES =
  /\b(?:physical exam(?:ination)?|(?:check|checking) (?:out )?your (?:heart|lungs|chest|belly|abdomen|ears|throat|eyes|skin|back|neck|knee|ankle|foot|feet|legs?|arms?|shoulder|hip|wrist|hand)|examine you|do (?:a|my|your|the) (?:quick )?exam|on (?:your |my |the )?(?:\w+ )?exam(?:ination)?|listen to your (?:heart|lungs|chest)|take (?:a |some )?(?:deep |big )breaths?|breathe in and out|take a (?:quick )?look at|vital signs|your vitals|let me (?:look|feel|check)|press (?:on|here)|palpat\w*|range of motion)\b/;
/** Clinician phrases that open the results review. */
export const RESULTS_PHASE_CUES =
  /\b(?:(?:look|looking|looked) at (?:your|the|some of your) (?:results|labs?|x-?ray|mri|imaging|blood work|echo\w*|ct|scan|ultrasound)|(?:review|reviewed|reviewing) (?:your|the) (?:results|labs?|x-?ray|mri|imaging|blood work)|show me the)\b/;
/** Clinician phrases that open the assessment and plan. */
export const PLAN_PHASE_CUES =
  /\b(?:assessment and (?:my )?plan|my assessment|my plan|(?:for|regarding|as for) (?:your|the) (?:first|second|third|fourth|fifth|next|last|final|other) (?:problem|issue|concern|diagnosis)|(?:my|the) (?:diagnosis|impression)|what i(?: want| would like|'d like| am going| will) (?:to )?do|treatment plan)\b/;

/**
 * Explicit cues that place a clinician's statement whatever the phase of the visit: examination
 * findings, test results, orders and decisions, impressions. They beat the phase heuristic, so an
 * exam finding said during the plan still lands under the exam.
 */
/** Examination language and measured vitals. */
export const EXAM_FINDING_CUES =
  /\b(?:on (?:(?:your|his|her|the|my|physical|today's) )?(?:\w+ )?(?:exam|examination)|(?:i|we) (?:do |did )?(?:not )?(?:hear|appreciate|palpate|auscultate)|(?:systolic|diastolic|holosystolic) (?:ejection )?murmurs?|murmurs?|tenderness|tender (?:to|over|on|at)|(?:to|on|with|upon) palpation|range of motion|lungs? (?:sound|are|is|were)|clear to auscultation|(?:pitting|lower extremity|trace|bilateral) edema|edema (?:in|of|bilaterally)|straight leg raise|(?:strength|reflexes|pulses|sensation) (?:is|are|was|were) |[0-5]\/5 (?:strength|on|in|bilaterally)|capillary refill|crackles|rales|rhonchi|wheez(?:es|ing) (?:on|in)|(?:no|some|mild|trace) (?:erythema|effusion|ecchymosis|crepitus)|effusion|ecchymosis|crepitus|(?:blood pressure|heart rate|pulse|oxygen saturation|temperature|respiratory rate) (?:is|was|of|today is|here)[^.]*\d|(?:vital signs|vitals) (?:look|are|were)|(?:rrr|regular rate and rhythm))\b/;
/** Results: a test with what it showed. */
export const RESULT_FINDING_CUES =
  /\b(?:(?:x-?rays?|ekg|ecg|electrocardiogram|mri|ct|cat scan|labs?|lab work|blood work|bloodwork|a1c|echocardiogram|echo|ultrasound|urinalysis|cbc|lipid panel|cholesterol|creatinine|potassium|hemoglobin|ejection fraction|stress test|biopsy|mammogram|imaging|scan|results?)\b[^.]{0,60}\b(?:showed|shows|show|revealed|reveals|demonstrat\w+|came back|was|were|is|are|has been|normal|abnormal|elevated|high|low|negative|positive|unremarkable|at \d)|(?:reviewed|reviewing|review of) (?:the |your |his |her )?(?:results|labs?|x-?rays?|mri|imaging|ekg|echo\w*|blood work|ct))\b/;
/**
 * A test named as something still to be done ("the only way to know is to do a kidney ultrasound",
 * "downstairs they can do the ultrasound", "instructions for the ultrasound"): an order, not a result.
 */
export const TEST_TO_BE_DONE =
  /\b(?:to do|can do|will do|(?:do|get|have|complete) (?:a|an|the|your|her|his|their|this|that)(?: \w+){0,3} (?:done|today|tomorrow|scheduled)|instructions for|set (?:you|her|him|them) up for|schedule|order|obtain|going to (?:do|get|have)|need (?:a|an|to get|to do))\b/;
/** Decisions and orders. */
export const ORDER_CUES =
  /\b(?:(?:i|we)(?: do| really| also| just| definitely)* (?:want to|would like to|am going to|are going to|will|need to|plan to)(?: just| also| go ahead and| definitely)* (?:order|prescribe|refer|start|continue|increase|decrease|schedule|obtain|send|recommend|repeat|switch|stop|discontinue|hold|add|change|adjust|put (?:you|him|her) (?:on|in))|let's (?:order|start|continue|increase|decrease|refer|schedule|get|go ahead)|(?:we will|we'll|i will|i'll) (?:start|continue|refer|order|prescribe|increase|schedule|follow)|follow(?:-| )?up (?:with|in)|recommend (?:that|you|him|her))\b/;

/** A follow-up with its time: "come back in three months", "I'll see you in 6 weeks". */
export const TIMED_FOLLOW_UP =
  /\b(?:come back|come in|return|follow(?:-| )?up|see (?:you|him|her|them)(?: back| again)?|recheck (?:you|him|her|them)|check back)(?: with (?:me|us))? in (?:about |another |a |an |a few |a couple(?: of)? |\d+ |\d+ (?:to|or) \d+ )?(?:days?|weeks?|months?|years?)\b/;
/** Clinician phrases stating a diagnosis or impression (assessment, not plan). */
export const ASSESSMENT_CUES =
  /\b(?:(?:this|it|that) (?:is|looks|sounds|seems) (?:most |very |more )?(?:likely|probably|like)|(?:consistent|compatible) with|(?:suggestive|indicative) of|diagnos\w+|(?:i think|i believe|it sounds like|it looks like|it seems like|i suspect|i'm concerned|i am concerned|concerned that|likely|probably) (?:you|she|he|this|that|it|your|her|his|we)\b|(?:you|she|he) (?:have|has) (?:what (?:we|i) (?:would )?call )?(?:a |an )?(?:\w+ ){0,3}(?:sprain|strain|fracture|infection|tear|disease|syndrome|itis|osis)|(?:concerned|worried) (?:about|for)|(?:is|are) (?:stable|controlled|uncontrolled|well controlled|improving|worsening)|(?:first|second|third|next|last) problem)\b/;
/**
 * Words that name a diagnosis: what tells an impression ("that's an abscess", "it sounds like
 * osteoarthritis") from talk of how something looks or sounds ("it looks like it's healing").
 */
export const DIAGNOSIS_WORDS =
  /\b(?:[a-z]{3,}itis|[a-z]{2,}(?<!diagn|progn)osis|[a-z]{3,}pathy|[a-z]{3,}oma|(?:viral|bacterial|fungal|yeast|urinary tract|sinus|ear|skin)? ?infection|viral|virus|bacterial|abscess|sprain(?:ed)?|strain(?:ed)?|fracture[ds]?|torn|tear|cyst|hernia|ulcer|reflux|muscular|musculoskeletal|pulled muscle|muscle (?:strain|spasm)|syndrome|disease|disorder|migraines?|concussion|contusion|pneumonia|flu|influenza|sciatica|vertigo|dehydrat\w+|shingles|gout|anemia|allergic reaction|kidney stones?|strep throat|common cold)\b/;
/** Clinician phrases that announce an action, even during the examination ("we'll repeat it"). */
export const FUTURE_ACTION_CUES =
  /\b(?:we will|i will|i want (?:to|her|him|the patient|them)|i would like to|we are going to|we need to|i am going to (?:order|prescribe|start|refer|increase|decrease|send|give|put|get|recommend|schedule|have))\b/;

/** Clinician phrases that announce what will be done. */
export const PLAN_CUES =
  /\b(?:(?:i|we)(?: am| are|'m|'re)? going to|(?:i|we)(?:'ll| will)|(?:i|we) want (?:you|her|him|to)|i would like|i'd like|let's|let us|recommend|prescrib\w+|refer\w*|order\w*|start (?:you|her|him)|increase|decrease|continue|schedule|follow(?:-| )?up|come back|physical therapy|injection|surgery|brace|ice|elevat\w+)\b/;

/** Symptoms and negatable findings: what a yes/no question must ask about to become a denial. */
export const SYMPTOM_CUES =
  /\b(?:pain|ache|aches|aching|hurt|hurts|sore|swell\w*|swollen|fever|fevers|chills|sweat\w*|nausea|vomit\w*|diarrh\w+|constipat\w+|blood|bleed\w*|cough\w*|short(?:ness)? of breath|breath\w*|wheez\w*|dizz\w+|lightheaded\w*|faint\w*|headaches?|numb\w*|tingl\w*|weak\w*|tired\w*|fatigue|rash\w*|itch\w*|burn\w*|urinat\w+|urine|bowel|stool|appetite|weight|sleep\w*|anxi\w+|depress\w+|mood|palpitations?|chest|abdominal|stomach|belly|vision|hearing|discharge|congestion|runny|sneez\w*|cramp\w*|stiff\w*|spasm\w*|bruis\w*|pop|click\w*|lock\w*|instab\w+|injur\w*|fall|fell|symptoms?|problems?|issues?|trouble|difficulty|changes?|infection|lumps?|mass|smok\w+|drink\w*|alcohol|drugs?|allerg\w+|harm|suicid\w+)\b/;

/**
 * Section-label vocabulary: which kinds of content a heading asks for. Used for curated and
 * host-defined headings alike; matched on the label first, then on the section's guidance.
 */
export const LABEL_KINDS: readonly (readonly [RegExp, readonly Kind[]])[] = [
  [
    /\bsubjective\b/,
    ['chief_complaint', 'hpi', 'past_history', 'medications', 'allergies', 'family_history', 'social_history', 'ros'],
  ],
  [/\bobjective\b/, ['vitals', 'exam', 'results']],
  [
    /\b(?:chief complaint|reason for (?:the )?(?:visit|encounter|consultation|appointment|admission|referral)|presenting (?:complaint|problem)|\bcc\b|concern)/,
    ['chief_complaint'],
  ],
  [
    /\b(?:history of (?:the )?present(?:ing)? illness|\bhpi\b|present illness|interval history|hospital course|history of present|\bhistory\b(?! of)|narrative|story)/,
    ['hpi'],
  ],
  [
    /\b(?:past (?:medical |surgical )?history|medical history|surgical history|\bpmh\b|problem list|comorbidit\w+|past history)/,
    ['past_history'],
  ],
  [/\b(?:medications?|meds|drugs?|prescriptions?|pharmacotherapy)\b/, ['medications']],
  [/\ballerg\w*/, ['allergies']],
  [/\bfamily\b/, ['family_history']],
  [/\b(?:social|lifestyle|habits|occupation)\b/, ['social_history']],
  [/\b(?:review of systems|\bros\b|systems review|symptoms)\b/, ['ros']],
  [/\bvital/, ['vitals']],
  [/\b(?:physical|exam|examination|findings|condition at discharge)\b/, ['exam']],
  [/\b(?:results?|labs?|laborator\w+|imaging|investigations?|diagnostics?|tests?|data)\b/, ['results']],
  [/\b(?:assessment|impression|diagnos[ie]s|problems?)\b/, ['assessment']],
  [/\b(?:plan|treatment|management|next steps?|recommendations?|orders?|procedures?)\b/, ['plan']],
  [/\b(?:follow(?:-| )?up|instructions|disposition|return|patient education|questions)\b/, ['follow_up']],
];

/**
 * Words a rewritten statement may say although the speaker did not: the third-person frame of
 * note style ("The patient reports …", "Denies …"), pronouns standing for the patient, and unit
 * abbreviations of units that were said in full. Faithfulness checks should treat them as
 * framing, not content; everything else an output sentence says comes from the input.
 */
export const FRAMING_WORDS: ReadonlySet<string> = new Set([
  'patient',
  "patient's",
  'reports',
  'denies',
  'endorses',
  'she',
  'he',
  'her',
  'him',
  'his',
  'hers',
  'herself',
  'himself',
  'mg',
  'mcg',
  'ml',
  'kg',
  'not',
  'is',
  'has',
  'does',
  'going',
  'to',
  'want',
  'will',
  'would',
  'cannot',
  'because',
]);
