/**
 * Tests a clinician orders or reports: laboratory values, imaging and other studies, with the
 * phrases a visit names them by and, for laboratory values, the unit a bare number is in.
 */
export interface TestEntry {
  name: string;
  kind: 'lab' | 'imaging' | 'study';
  phrases: readonly string[];
  unit?: string;
}

export const TESTS: readonly TestEntry[] = [
  { name: 'hemoglobin A1c', kind: 'lab', phrases: ['a1c', 'hemoglobin a1c', 'hba1c', 'a one c'], unit: '%' },
  { name: 'blood glucose', kind: 'lab', phrases: ['blood sugar*', 'glucose', 'sugars'], unit: 'mg/dL' },
  { name: 'potassium', kind: 'lab', phrases: ['potassium'], unit: 'mmol/L' },
  { name: 'sodium', kind: 'lab', phrases: ['sodium'], unit: 'mmol/L' },
  { name: 'creatinine', kind: 'lab', phrases: ['creatinine'], unit: 'mg/dL' },
  { name: 'kidney function', kind: 'lab', phrases: ['kidney function', 'renal function', 'gfr', 'egfr'] },
  { name: 'liver function tests', kind: 'lab', phrases: ['liver function*', 'liver enzymes', 'lfts', 'lft'] },
  { name: 'hemoglobin', kind: 'lab', phrases: ['hemoglobin', 'haemoglobin'], unit: 'g/dL' },
  { name: 'white blood cell count', kind: 'lab', phrases: ['white count', 'white blood cell count', 'wbc'] },
  { name: 'complete blood count', kind: 'lab', phrases: ['cbc', 'complete blood count', 'blood count'] },
  { name: 'metabolic panel', kind: 'lab', phrases: ['metabolic panel', 'bmp', 'cmp', 'chem panel'] },
  { name: 'cholesterol', kind: 'lab', phrases: ['cholesterol', 'lipid panel', 'lipids', 'ldl', 'hdl'], unit: 'mg/dL' },
  { name: 'thyroid function', kind: 'lab', phrases: ['tsh', 'thyroid function*', 'thyroid level*'] },
  { name: 'troponin', kind: 'lab', phrases: ['troponin*'] },
  { name: 'urinalysis', kind: 'lab', phrases: ['urinalysis', 'urine test', 'urine sample', 'urine culture'] },
  { name: 'PSA', kind: 'lab', phrases: ['psa'] },
  { name: 'vitamin D', kind: 'lab', phrases: ['vitamin d'] },
  { name: 'INR', kind: 'lab', phrases: ['inr'] },
  { name: 'rapid strep test', kind: 'lab', phrases: ['strep test', 'rapid strep', 'strep swab', 'throat culture'] },
  { name: 'influenza test', kind: 'lab', phrases: ['flu test', 'flu swab', 'influenza test'] },
  { name: 'COVID-19 test', kind: 'lab', phrases: ['covid test', 'covid swab', 'covid-19 test'] },
  { name: 'mononucleosis test', kind: 'lab', phrases: ['mono test', 'monospot'] },
  { name: 'pregnancy test', kind: 'lab', phrases: ['pregnancy test'] },
  { name: 'blood work', kind: 'lab', phrases: ['blood work', 'bloodwork', 'labs', 'blood test*', 'lab work'] },
  { name: 'x-ray', kind: 'imaging', phrases: ['x-ray*', 'x ray*', 'xray*', 'radiograph*'] },
  { name: 'chest x-ray', kind: 'imaging', phrases: ['chest x-ray*', 'chest x ray*', 'chest xray*'] },
  { name: 'MRI', kind: 'imaging', phrases: ['mri', 'mri scan', 'magnetic resonance'] },
  { name: 'CT scan', kind: 'imaging', phrases: ['ct', 'ct scan', 'cat scan'] },
  { name: 'ultrasound', kind: 'imaging', phrases: ['ultrasound', 'sonogram'] },
  { name: 'echocardiogram', kind: 'study', phrases: ['echo', 'echocardiogram'] },
  { name: 'electrocardiogram', kind: 'study', phrases: ['ekg', 'ecg', 'electrocardiogram'] },
  { name: 'stress test', kind: 'study', phrases: ['stress test'] },
  { name: 'colonoscopy', kind: 'study', phrases: ['colonoscopy'] },
  { name: 'endoscopy', kind: 'study', phrases: ['endoscopy', 'egd'] },
  { name: 'biopsy', kind: 'study', phrases: ['biopsy'] },
  { name: 'pulmonary function tests', kind: 'study', phrases: ['pulmonary function test*', 'pfts', 'spirometry'] },
  { name: 'sleep study', kind: 'study', phrases: ['sleep study'] },
  { name: 'nerve conduction study', kind: 'study', phrases: ['nerve conduction*', 'emg'] },
  { name: 'bone density scan', kind: 'imaging', phrases: ['bone density', 'dexa scan', 'dexa'] },
  { name: 'mammogram', kind: 'imaging', phrases: ['mammogram'] },
];
