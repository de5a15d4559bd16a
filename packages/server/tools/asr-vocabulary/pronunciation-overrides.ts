/**
 * Pronunciations checked by hand for clinical words CMUdict lacks where flite's letter-to-sound
 * rules miss the usual one ("ureter" as "etter", "psa" as one syllable, "digoxin" only with a hard
 * g), in the CMU acoustic model's phones without stress marks. The usual pronunciation comes first;
 * a common variant follows when people say it too (often the one flite says). Words flite already
 * says acceptably are not here: its pronunciation is used for them.
 */
export const PRONUNCIATION_OVERRIDES: Readonly<Record<string, readonly string[]>> = {
  adnexal: ['AE D N EH K S AH L'],
  atorvastatin: ['AH T AO R V AH S T AE T AH N'],
  cellulitis: ['S EH L Y AH L AY T AH S'],
  creatinine: ['K R IY AE T AH N IY N', 'K R IY AE T AH N AY N'],
  crestor: ['K R EH S T ER'],
  dexamethasone: ['D EH K S AH M EH TH AH S OW N'],
  dhea: ['D IY EY CH IY EY'],
  digoxin: ['D IH JH AA K S IH N', 'D IH G AA K S IH N'],
  ef: ['IY EH F'],
  effexor: ['EH F EH K S ER'],
  emg: ['IY EH M JH IY'],
  ep: ['IY P IY'],
  erythema: ['EH R AH TH IY M AH'],
  erythematous: ['EH R AH TH EH M AH T AH S'],
  gabapentin: ['G AE B AH P EH N T IH N', 'G AA B AH P EH N T IH N'],
  gi: ['JH IY AY'],
  hyperthyroidism: ['HH AY P ER TH AY R OY D IH Z AH M'],
  hypothyroidism: ['HH AY P OW TH AY R OY D IH Z AH M'],
  icu: ['AY S IY Y UW'],
  iv: ['AY V IY'],
  lasix: ['L EY S IH K S'],
  lisinopril: ['L AY S IH N AH P R IH L', 'L AY Z AH N AH P R AH L'],
  meniscus: ['M AH N IH S K AH S', 'M EH N IH S K AH S'],
  metatarsal: ['M EH T AH T AA R S AH L'],
  metatarsals: ['M EH T AH T AA R S AH L Z'],
  metoprolol: ['M AH T OW P R AH L AO L', 'M EH T OW P R OW L AO L'],
  musculoskeletal: ['M AH S K Y AH L OW S K EH L AH T AH L'],
  olmesartan: ['OW L M AH S AA R T AH N'],
  oxycodone: ['AA K S IY K OW D OW N'],
  prilosec: ['P R AY L OW S EH K'],
  psa: ['P IY EH S EY'],
  spo: ['EH S P IY OW'],
  toprol: ['T OW P R AO L'],
  tramadol: ['T R AE M AH D AO L', 'T R AA M AH D AO L'],
  ureter: ['Y UH R IY T ER'],
  va: ['V IY EY'],
};
