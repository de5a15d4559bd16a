/**
 * A measured value in chart form, the one way every fact and note line writes it: a percentage
 * and a temperature close up ("97%", "38.2°C"), other units after a space ("120/80 mmHg",
 * "10 mg").
 */
export function chartQuantity(value: string | number, unit: string | undefined): string {
  if (unit === undefined || unit === '') return String(value);
  return /^(?:%|°[CF])$/.test(unit) ? `${value}${unit}` : `${value} ${unit}`;
}
