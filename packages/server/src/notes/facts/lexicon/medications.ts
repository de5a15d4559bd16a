/**
 * Medicines as a visit names them: generic and brand names of the drugs primary care and the
 * common specialties see most, with the generic a brand stands for; the name endings that mark a
 * drug the list does not hold; dose units, frequencies and routes as said, with their chart form.
 */
export interface DrugEntry {
  /** The name charted: the generic, or the brand when that is how the product is known. */
  name: string;
  phrases: readonly string[];
}

const generic = (name: string, ...brands: string[]): DrugEntry => ({ name, phrases: [name, ...brands] });

export const DRUGS: readonly DrugEntry[] = [
  generic('lisinopril', 'zestril', 'prinivil'),
  generic('losartan', 'cozaar'),
  generic('amlodipine', 'norvasc'),
  generic('hydrochlorothiazide', 'hctz'),
  generic('metoprolol', 'lopressor', 'toprol'),
  generic('carvedilol', 'coreg'),
  generic('furosemide', 'lasix'),
  generic('spironolactone', 'aldactone'),
  generic('atorvastatin', 'lipitor'),
  generic('rosuvastatin', 'crestor'),
  generic('simvastatin', 'zocor'),
  generic('pravastatin'),
  generic('metformin', 'glucophage'),
  generic('insulin glargine', 'lantus', 'basaglar', 'toujeo'),
  generic('insulin', 'humalog', 'novolog'),
  generic('glipizide'),
  generic('empagliflozin', 'jardiance'),
  generic('semaglutide', 'ozempic', 'wegovy', 'rybelsus'),
  generic('sitagliptin', 'januvia'),
  generic('levothyroxine', 'synthroid'),
  // Asked about as a class ("any blood thinners?") before a procedure.
  generic('blood thinner', 'blood thinners', 'anticoagulant*', 'anticoagulation'),
  // An inhaler named by its device alone ("the inhaler"); after a drug's name it is that drug's.
  generic('inhaler', 'inhalers'),
  generic('warfarin', 'coumadin'),
  generic('apixaban', 'eliquis'),
  generic('rivaroxaban', 'xarelto'),
  generic('clopidogrel', 'plavix'),
  generic('aspirin', 'baby aspirin'),
  generic('ibuprofen', 'advil', 'motrin'),
  generic('naproxen', 'aleve', 'naprosyn'),
  generic('acetaminophen', 'tylenol'),
  generic('meloxicam', 'mobic'),
  generic('diclofenac', 'voltaren'),
  generic('gabapentin', 'neurontin'),
  generic('pregabalin', 'lyrica'),
  generic('tramadol'),
  generic('morphine'),
  generic('codeine'),
  generic('hydrocodone', 'norco', 'vicodin'),
  generic('oxycodone', 'percocet'),
  generic('cyclobenzaprine', 'flexeril'),
  generic('prednisone'),
  generic('methylprednisolone', 'medrol'),
  generic('albuterol', 'proair', 'ventolin', 'rescue inhaler'),
  generic('fluticasone', 'flonase', 'flovent'),
  generic('budesonide', 'symbicort', 'pulmicort'),
  generic('tiotropium', 'spiriva'),
  generic('fluticasone-salmeterol', 'advair', 'wixela'),
  generic('ipratropium', 'atrovent'),
  generic('montelukast', 'singulair'),
  generic('cetirizine', 'zyrtec'),
  generic('loratadine', 'claritin'),
  generic('diphenhydramine', 'benadryl'),
  generic('omeprazole', 'prilosec'),
  generic('pantoprazole', 'protonix'),
  generic('esomeprazole', 'nexium'),
  generic('famotidine', 'pepcid'),
  generic('ondansetron', 'zofran'),
  generic('amoxicillin', 'augmentin'),
  generic('azithromycin', 'zithromax', 'z-pack', 'z pack'),
  generic('doxycycline'),
  generic('cephalexin', 'keflex'),
  generic('ciprofloxacin', 'cipro'),
  generic('nitrofurantoin', 'macrobid'),
  generic('sulfamethoxazole-trimethoprim', 'bactrim'),
  generic('penicillin'),
  generic('sertraline', 'zoloft'),
  generic('fluoxetine', 'prozac'),
  generic('escitalopram', 'lexapro'),
  generic('citalopram', 'celexa'),
  generic('bupropion', 'wellbutrin'),
  generic('trazodone'),
  generic('alprazolam', 'xanax'),
  generic('lorazepam', 'ativan'),
  generic('methotrexate'),
  generic('hydroxychloroquine', 'plaquenil'),
  generic('allopurinol'),
  generic('colchicine'),
  generic('tamsulosin', 'flomax'),
  generic('finasteride'),
  generic('sumatriptan', 'imitrex'),
  generic('melatonin'),
  generic('vitamin d'),
  generic('fish oil'),
  generic('multivitamin'),
  generic('iron', 'iron supplement*'),
  generic('birth control', 'the pill'),
];

/** Endings that mark a drug name the list does not hold ("olmesartan", "bisoprolol"). */
export const DRUG_SUFFIX =
  /^[a-z]{3,}(?:pril|sartan|olol|dipine|statin|gliflozin|gliptin|glutide|prazole|tidine|floxacin|cycline|cillin|mycin|azole|xaban|parin|triptan|setron|lukast|afil|tadine|semide|thiazide|tropium|sonide|olone|asone)$/;

export interface UnitEntry {
  unit: string;
  pattern: string;
}

/** Dose units as said (the pattern) and as charted (the unit). */
export const DOSE_UNITS: readonly UnitEntry[] = [
  { unit: 'mg', pattern: 'mg|milligrams?|migs?' },
  { unit: 'mcg', pattern: 'mcg|micrograms?|micro grams?' },
  { unit: 'g', pattern: 'grams?' },
  { unit: 'mL', pattern: 'ml|milliliters?|cc' },
  { unit: 'units', pattern: 'units?' },
  { unit: 'puff', pattern: 'puffs?' },
  { unit: 'tablet', pattern: 'tablets?|pills?|tabs?' },
  { unit: 'capsule', pattern: 'capsules?|caps?' },
  { unit: 'drop', pattern: 'drops?' },
];

/** Frequencies as said, tried in order, and their chart form. */
export const FREQUENCIES: readonly (readonly [string, RegExp])[] = [
  ['as needed', /\b(?:as needed|when (?:i|you|he|she) need|prn|if needed)\b/],
  ['every 4 hours', /\bevery (?:4|four) hours\b/],
  ['every 6 hours', /\bevery (?:6|six) hours\b/],
  ['every 8 hours', /\bevery (?:8|eight) hours\b/],
  ['every 12 hours', /\bevery (?:12|twelve) hours\b/],
  [
    'twice daily',
    /\b(?:twice (?:a|per) day|twice daily|two times (?:a|per) day|2 times (?:a|per) day|bid|morning and night)\b|\bb\.i\.d\b/,
  ],
  ['three times daily', /\b(?:three times (?:a|per) day|3 times (?:a|per) day|tid)\b/],
  ['four times daily', /\b(?:four times (?:a|per) day|4 times (?:a|per) day|qid)\b/],
  ['at bedtime', /\b(?:at bedtime|at night|before bed|every night|nightly|qhs)\b/],
  ['every morning', /\b(?:every morning|in the morning|each morning)\b/],
  ['weekly', /\b(?:once a week|weekly|every week)\b/],
  ['every other day', /\bevery other day\b/],
  ['daily', /\b(?:once (?:a|per) day|a day|daily|every day|each day|once daily|per day|qd)\b/],
];

export const ROUTES: readonly (readonly [string, RegExp])[] = [
  ['inhaled', /\b(?:inhaler|puffs?|inhaled|nebuli[sz]er)\b/],
  ['topical', /\b(?:cream|ointment|gel|topical|patch)\b/],
  ['subcutaneous', /\b(?:injection|inject|shot|subcutaneous|pen)\b/],
  ['intranasal', /\b(?:nasal spray|nose spray)\b/],
];

/** Drugs taken by inhaler: where one is named, "the inhaler" is one of them, not another drug. */
export const INHALED = /^(?:albuterol|fluticasone|budesonide|tiotropium|fluticasone-salmeterol|ipratropium)$/;
