/**
 * Body parts as said, with the chart word and whether they come in pairs (so "left"/"right"
 * matter), and the words that say which side.
 */

export interface BodyPart {
  name: string;
  paired: boolean;
  phrases: readonly string[];
}

const part = (name: string, paired: boolean, ...phrases: string[]): BodyPart => ({
  name,
  paired,
  phrases: [name, ...phrases],
});

export const BODY_PARTS: readonly BodyPart[] = [
  part('head', false),
  part('neck', false),
  part('shoulder', true, 'shoulders', 'rotator cuff'),
  part('upper arm', true, 'biceps', 'triceps'),
  part('arm', true, 'arms'),
  part('elbow', true, 'elbows'),
  part('forearm', true, 'forearms'),
  part('wrist', true, 'wrists'),
  part('hand', true, 'hands', 'palm'),
  part('finger', true, 'fingers', 'thumb', 'thumbs'),
  part('chest', false, 'chest wall', 'ribs', 'rib'),
  part('breast', true, 'breasts'),
  part('upper back', false),
  part('lower back', false, 'low back', 'lumbar', 'lumbar spine'),
  part('back', false, 'spine'),
  part('abdomen', false, 'belly', 'stomach', 'tummy'),
  part('flank', true, 'side'),
  part('groin', true),
  part('pelvis', false, 'pelvic'),
  part('hip', true, 'hips'),
  part('buttock', true, 'buttocks', 'glute'),
  part('thigh', true, 'thighs', 'hamstring', 'quad', 'quadriceps'),
  part('leg', true, 'legs', 'lower extremity', 'lower extremities'),
  part('knee', true, 'knees', 'kneecap', 'patella'),
  part('calf', true, 'calves', 'shin', 'shins'),
  part('ankle', true, 'ankles'),
  part('foot', true, 'feet', 'heel', 'heels', 'arch'),
  part('toe', true, 'toes', 'big toe'),
  part('eye', true, 'eyes'),
  part('ear', true, 'ears'),
  part('jaw', false),
  part('throat', false),
  part('skin', false),
];

/** Words that say which side, with the side they name. */
export const SIDES: readonly (readonly [RegExp, 'left' | 'right' | 'bilateral'])[] = [
  [/\b(?:both|bilateral(?:ly)?|either|each)\b/, 'bilateral'],
  [/\bleft(?:[- ]sided)?\b/, 'left'],
  // Not "right here", "right now", "all right", "that's right".
  [
    /(?<!\b(?:all|that is|that's|is that|you are|you're|yeah|okay|oh) )\bright(?:[- ]sided)?\b(?! (?:here|there|now|away|after|before|when|then|behind|under|over|by|next to|around|up|down|off|through|into|at the)\b)/,
    'right',
  ],
];

/** Words for pain and the like that make a body part a complaint: "knee pain", "my knee hurts". */
export const PAIN_WORDS =
  /\b(?:pain|pains|painful|hurt|hurts|hurting|ache|aches|aching|achy|sore|soreness|tender|discomfort)\b/;
export const SWELLING_WORDS = /\b(?:swelling|swollen|swell|swells|puffy)\b/;
export const STIFFNESS_WORDS = /\b(?:stiff|stiffness)\b/;

/**
 * Organs inside the body, as said before a growth ("pituitary lesion", "a mass on the liver"): such a
 * lesion is a finding of imaging, never the skin complaint the same word names on its own.
 */
export const INTERNAL_ORGANS =
  /\b(?:pituitary|brain|cerebral|intracranial|spinal|cord|thyroid|lung|lungs|pulmonary|liver|hepatic|kidney|kidneys|renal|adrenal|pancreas|pancreatic|spleen|splenic|bladder|bowel|colon|colonic|ovary|ovarian|uterus|uterine|prostate|bone|bony|heart|cardiac|mediastinal)\b/;
