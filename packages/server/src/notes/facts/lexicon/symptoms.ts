/**
 * Symptoms as patients and clinicians say them, each with the chart word and the review-of-systems
 * system it belongs to. Written from clinical vocabulary and ROS conventions, not from any data
 * set. Phrases are lower case and matched on word boundaries; a trailing `*` matches any ending
 * ("cough*" → cough, coughing, coughs).
 */

export const ROS_SYSTEMS = [
  'Constitutional',
  'Eyes',
  'Ears, Nose, Mouth and Throat',
  'Cardiovascular',
  'Respiratory',
  'Gastrointestinal',
  'Genitourinary',
  'Musculoskeletal',
  'Skin',
  'Neurological',
  'Psychiatric',
  'Endocrine',
  'Hematologic/Lymphatic',
  'Allergic/Immunologic',
] as const;
export type RosSystem = (typeof ROS_SYSTEMS)[number];

export interface SymptomEntry {
  /** The chart word: "shortness of breath", "nausea". */
  name: string;
  system: RosSystem;
  /** How it is said, chart word included. */
  phrases: readonly string[];
}

const entry = (name: string, system: RosSystem, ...phrases: string[]): SymptomEntry => ({
  name,
  system,
  phrases: [name, ...phrases],
});

export const SYMPTOMS: readonly SymptomEntry[] = [
  // Constitutional
  entry('fever', 'Constitutional', 'fevers', 'febrile', 'temperature', 'temperatures', 'running a temp'),
  entry('chills', 'Constitutional', 'chill', 'shaking chills', 'rigors'),
  entry('night sweats', 'Constitutional', 'sweating at night', 'sweats'),
  entry('fatigue', 'Constitutional', 'tired*', 'exhausted', 'exhaustion', 'worn out', 'no energy', 'low energy', 'lethargic', 'lethargy', 'run down'),
  entry('weight loss', 'Constitutional', 'lost weight', 'losing weight', 'lose weight'),
  entry('weight gain', 'Constitutional', 'gained weight', 'gaining weight', 'put on weight'),
  entry('decreased appetite', 'Constitutional', 'loss of appetite', 'no appetite', 'poor appetite', 'not hungry', 'appetite'),
  entry('malaise', 'Constitutional', 'feeling unwell', 'out of sorts', 'under the weather'),
  entry('weakness', 'Constitutional', 'weak'),
  // Eyes
  entry('blurred vision', 'Eyes', 'blurry vision', 'vision is blurry', 'blurriness', 'vision changes', 'changes in vision', 'change in vision', 'trouble seeing'),
  entry('double vision', 'Eyes', 'seeing double'),
  entry('eye pain', 'Eyes'),
  entry('eye redness', 'Eyes', 'red eye*', 'pink eye'),
  // ENT
  entry('sore throat', 'Ears, Nose, Mouth and Throat', 'throat pain', 'throat hurts', 'scratchy throat'),
  entry('nasal congestion', 'Ears, Nose, Mouth and Throat', 'congestion', 'congested', 'stuffy nose', 'stuffed up', 'sinus congestion', 'sinus pressure'),
  entry('runny nose', 'Ears, Nose, Mouth and Throat', 'rhinorrhea', 'nose is running', 'post nasal drip', 'postnasal drip'),
  entry('sneezing', 'Ears, Nose, Mouth and Throat', 'sneez*'),
  entry('ear pain', 'Ears, Nose, Mouth and Throat', 'earache', 'ear ache', 'ears hurt'),
  entry('hearing loss', 'Ears, Nose, Mouth and Throat', 'trouble hearing', 'difficulty hearing', 'can not hear'),
  entry('tinnitus', 'Ears, Nose, Mouth and Throat', 'ringing in my ears', 'ringing in the ears', 'ringing in your ears', 'ears ringing'),
  entry('hoarseness', 'Ears, Nose, Mouth and Throat', 'hoarse', 'lost my voice'),
  entry('difficulty swallowing', 'Ears, Nose, Mouth and Throat', 'trouble swallowing', 'dysphagia', 'painful swallowing'),
  // Cardiovascular
  entry('chest pain', 'Cardiovascular', 'chest pains', 'chest discomfort', 'chest pressure', 'chest tightness', 'tightness in my chest', 'tightness in the chest', 'pressure in my chest', 'chest cramps', 'pain in my chest', 'pain in the chest', 'angina'),
  entry('palpitations', 'Cardiovascular', 'palpitation', 'heart racing', 'racing heart', 'heart is racing', 'heart pounding', 'heart fluttering', 'fluttering', 'skipped beats', 'skipping beats', 'irregular heartbeat'),
  entry('leg swelling', 'Cardiovascular', 'swelling in my legs', 'swelling in the legs', 'swelling in your legs', 'swollen legs', 'legs are swollen', 'ankle swelling', 'swollen ankles', 'ankles are swollen', 'swelling in my ankles', 'swelling in your ankles', 'swelling in my feet', 'swollen feet', 'lower extremity swelling', 'swelling in the lower extremities', 'edema', 'fluid retention'),
  entry('dyspnea on exertion', 'Cardiovascular', 'short of breath when i walk', 'winded', 'out of breath'),
  entry('orthopnea', 'Cardiovascular', 'trouble breathing lying flat', 'sleep on pillows'),
  entry('syncope', 'Cardiovascular', 'fainting', 'fainted', 'passed out', 'pass out', 'blacked out', 'loss of consciousness'),
  // Respiratory
  entry('shortness of breath', 'Respiratory', 'short of breath', 'trouble breathing', 'difficulty breathing', 'hard to breathe', 'breathless*', 'dyspnea', 'breathing problems', 'can not catch my breath', 'catch my breath'),
  entry('cough', 'Respiratory', 'cough*'),
  entry('wheezing', 'Respiratory', 'wheez*'),
  entry('sputum production', 'Respiratory', 'phlegm', 'sputum', 'mucus', 'productive cough', 'coughing up'),
  entry('hemoptysis', 'Respiratory', 'coughing up blood', 'blood in my sputum', 'blood when i cough'),
  // Gastrointestinal
  entry('nausea', 'Gastrointestinal', 'nauseous', 'nauseated', 'queasy', 'sick to my stomach'),
  entry('vomiting', 'Gastrointestinal', 'vomit*', 'throwing up', 'threw up', 'throw up', 'emesis'),
  entry('diarrhea', 'Gastrointestinal', 'diarrhoea', 'loose stools', 'loose stool', 'watery stools', 'runs'),
  entry('constipation', 'Gastrointestinal', 'constipated', 'hard stools', 'trouble having a bowel movement'),
  entry('abdominal pain', 'Gastrointestinal', 'stomach pain', 'stomach ache', 'stomachache', 'belly pain', 'belly ache', 'tummy ache', 'abdominal discomfort', 'pain in my stomach', 'pain in my belly', 'pain in my abdomen', 'stomach hurts', 'belly hurts', 'abdominal cramping', 'stomach cramps'),
  entry('heartburn', 'Gastrointestinal', 'acid reflux', 'reflux', 'indigestion', 'acid'),
  entry('bloating', 'Gastrointestinal', 'bloated', 'gassy', 'gas'),
  entry('blood in stool', 'Gastrointestinal', 'bloody stool*', 'blood in my stool', 'blood in the stool', 'rectal bleeding', 'melena', 'black stools', 'tarry stools', 'hematochezia'),
  entry('changes in bowel habits', 'Gastrointestinal', 'change in bowel habits', 'bowel changes'),
  // Genitourinary
  entry('dysuria', 'Genitourinary', 'painful urination', 'pain with urination', 'burning with urination', 'burning when i urinate', 'burning when i pee', 'burning when you urinate', 'burning when you pee', 'hurts to pee', 'burns when i pee'),
  entry('urinary frequency', 'Genitourinary', 'frequent urination', 'urinating frequently', 'peeing a lot', 'going to the bathroom a lot', 'urinating more often'),
  entry('urinary urgency', 'Genitourinary', 'urgency'),
  entry('hematuria', 'Genitourinary', 'blood in my urine', 'blood in the urine', 'blood in your urine', 'bloody urine'),
  entry('urinary incontinence', 'Genitourinary', 'incontinence', 'leaking urine', 'accidents'),
  entry('nocturia', 'Genitourinary', 'up at night to urinate', 'get up at night to pee', 'getting up at night to urinate'),
  entry('vaginal discharge', 'Genitourinary', 'discharge'),
  // Musculoskeletal
  entry('joint pain', 'Musculoskeletal', 'joint pains', 'arthralgia', 'joints hurt', 'achy joints'),
  entry('muscle aches', 'Musculoskeletal', 'muscle ache', 'body aches', 'myalgia*', 'muscle pain', 'aches'),
  entry('back pain', 'Musculoskeletal', 'backache', 'back ache', 'back hurts', 'low back pain', 'lower back pain', 'pain in my back', 'back is hurting'),
  entry('neck pain', 'Musculoskeletal', 'neck hurts', 'pain in my neck', 'stiff neck'),
  entry('joint swelling', 'Musculoskeletal', 'swollen joint*'),
  entry('stiffness', 'Musculoskeletal', 'stiff'),
  entry('muscle cramps', 'Musculoskeletal', 'cramps', 'cramping', 'muscle cramp', 'leg cramps'),
  // Skin
  entry('rash', 'Skin', 'rashes', 'skin rash', 'hives', 'breakout', 'broke out'),
  entry('itching', 'Skin', 'itchy', 'itch', 'pruritus'),
  entry('bruising', 'Skin', 'bruise*', 'bruising easily'),
  entry('skin lesion', 'Skin', 'lesion', 'mole', 'lump on my skin', 'sore that will not heal'),
  entry('wound', 'Skin', 'cut', 'laceration'),
  // Neurological
  entry('headache', 'Neurological', 'headaches', 'head hurts', 'head pain', 'migraine*', 'head is pounding'),
  entry('dizziness', 'Neurological', 'dizzy', 'vertigo', 'spinning', 'room spinning', 'off balance', 'unsteady'),
  entry('lightheadedness', 'Neurological', 'lightheaded', 'light headed', 'light-headed', 'woozy'),
  entry('numbness', 'Neurological', 'numb'),
  entry('tingling', 'Neurological', 'tingl*', 'pins and needles', 'paresthesia*'),
  entry('tremor', 'Neurological', 'tremors', 'shaking', 'shaky'),
  entry('seizures', 'Neurological', 'seizure', 'convulsion*'),
  entry('memory problems', 'Neurological', 'memory loss', 'forgetful*', 'trouble remembering', 'confusion', 'confused'),
  entry('focal weakness', 'Neurological', 'weakness in my arm', 'weakness in my leg', 'arm weakness', 'leg weakness', 'one-sided weakness'),
  entry('loss of taste or smell', 'Neurological', 'loss of taste', 'loss of smell', 'can not taste', 'can not smell'),
  // Psychiatric
  entry('depression', 'Psychiatric', 'depressed', 'feeling down', 'feeling sad', 'sadness', 'low mood', 'hopeless*'),
  entry('anxiety', 'Psychiatric', 'anxious', 'nervous', 'worried all the time', 'panic attack*', 'stressed', 'stress'),
  entry('insomnia', 'Psychiatric', 'trouble sleeping', 'difficulty sleeping', 'can not sleep', 'not sleeping', 'poor sleep', 'sleeping poorly', 'sleep problems', 'waking up at night'),
  entry('suicidal thoughts', 'Psychiatric', 'suicidal ideation', 'thoughts of hurting yourself', 'thoughts of harming yourself', 'thoughts of self-harm', 'want to hurt myself'),
  entry('irritability', 'Psychiatric', 'irritable'),
  // Endocrine
  entry('excessive thirst', 'Endocrine', 'polydipsia', 'very thirsty', 'thirsty all the time', 'increased thirst'),
  entry('heat intolerance', 'Endocrine'),
  entry('cold intolerance', 'Endocrine'),
  entry('hypoglycemic episodes', 'Endocrine', 'low blood sugars', 'low blood sugar', 'sugar drops', 'hypoglycemia'),
  entry('hyperglycemia', 'Endocrine', 'high blood sugars', 'high blood sugar', 'sugars are high', 'sugars have been high'),
  // Hematologic/Lymphatic
  entry('swollen glands', 'Hematologic/Lymphatic', 'swollen lymph nodes', 'lymph nodes', 'glands are swollen'),
  entry('easy bleeding', 'Hematologic/Lymphatic', 'bleeding easily', 'nosebleed*', 'bleeding gums'),
  // Allergic/Immunologic
  entry('seasonal allergies', 'Allergic/Immunologic', 'hay fever', 'allergies acting up', 'allergy symptoms'),
];
