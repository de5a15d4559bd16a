/** The review-of-systems systems, in the order a note lists them. */
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
