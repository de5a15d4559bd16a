/** The readable tables `npm run eval:notes` prints. */
import { table } from '../shared/table.js';
import type { EvaluationReport, SystemSummary } from './evaluate.js';

export interface ReportMeta {
  dataset: string;
  style: string;
  /** Machine description lines, as the bench prints them. */
  machine: readonly string[];
  date: string;
}

const score = (value: number | null): string => (value === null ? '—' : value.toFixed(4));
const ms = (value: number): string => value.toFixed(1);

function faithfulCell(system: SystemSummary): string {
  const { faithfulness } = system;
  return `${score(faithfulness.share)} (${faithfulness.supported}/${faithfulness.sentences})`;
}

function systemRow(system: SystemSummary): string[] {
  return [
    system.name,
    score(system.rouge.rouge1.f1),
    score(system.rouge.rouge2.f1),
    score(system.rouge.rougeL.f1),
    score(system.rouge.rougeLsum.f1),
    faithfulCell(system),
    system.meanTokens.toFixed(0),
    system.timing === null ? '—' : ms(system.timing.p50Ms),
    system.timing === null ? '—' : ms(system.timing.p95Ms),
  ];
}

const percent = (value: number | null): string => (value === null ? '—' : `${(value * 100).toFixed(1)}%`);

function auditLines(report: EvaluationReport): string[] {
  const { audit } = report;
  const support = Object.entries(audit.support)
    .map(([kind, count]) => `${kind} ${count}`)
    .join(', ');
  const lengthRatio = audit.medianReferenceWords === 0 ? null : audit.medianWords / audit.medianReferenceWords;
  return [
    "What a reviewing physician sees (the engine's notes):",
    ...table(
      ['Measure', 'Value'],
      [
        ['History sentences in the 1st/2nd person (outside A&P, quotes excepted)', percent(audit.personShare)],
        ['Sentences with a spoken-language marker', percent(audit.spokenShare)],
        ['Notes with a chief complaint', percent(audit.chiefComplaintShare)],
        ['Notes with an assessment and plan', percent(audit.assessmentAndPlanShare)],
        ['Sentences by verifier class', support === '' ? '—' : support],
        ['Omissions reported per note', audit.omissionsPerNote === null ? '—' : audit.omissionsPerNote.toFixed(1)],
        [
          'Median length, words (engine / reference)',
          `${audit.medianWords} / ${audit.medianReferenceWords} (${lengthRatio === null ? '—' : lengthRatio.toFixed(2)}×)`,
        ],
      ],
    ),
  ];
}

export function formatReport(
  report: EvaluationReport,
  meta: ReportMeta,
  options: { unsupported?: boolean } = {},
): string {
  const { engine, baseline } = report.systems;
  const lines: string[] = [
    `Note quality: ${meta.dataset}, ${report.notes} notes, template ${report.template.id} v${report.template.version}, style ${meta.style}, ${meta.date}`,
    'ROUGE: F1 per note, mean over notes (rouge_score defaults as in ACI-Bench: lower-case [a-z0-9]+ tokens,',
    'no stemming; ROUGE-Lsum = summary-level union LCS over newline-separated lines).',
    'Faithful: share of output sentences whose content words and numbers all appear in the dialogue',
    '(for the reference notes, a calibration: clinicians write findings and decisions nobody said aloud).',
    '',
    ...table(
      ['System', 'ROUGE-1', 'ROUGE-2', 'ROUGE-L', 'ROUGE-Lsum', 'Faithful (sentences)', 'Tokens', 'p50 ms', 'p95 ms'],
      [
        systemRow(engine),
        systemRow(baseline),
        [
          'reference notes',
          '',
          '',
          '',
          '',
          `${score(report.referenceFaithfulness.share)} (${report.referenceFaithfulness.supported}/${report.referenceFaithfulness.sentences})`,
          report.meanReferenceTokens.toFixed(0),
          '',
          '',
        ],
      ],
    ),
    '',
    `ROUGE-1 precision / recall: engine ${score(engine.rouge.rouge1.precision)} / ${score(engine.rouge.rouge1.recall)}, ` +
      `baseline ${score(baseline.rouge.rouge1.precision)} / ${score(baseline.rouge.rouge1.recall)}.`,
  ];
  if (engine.evidence !== null) {
    lines.push(
      `Evidence: ${engine.evidence.withEvidence}/${engine.evidence.sentences} engine sentences cite a turn or context field (${score(engine.evidence.share)}).`,
    );
  }
  if (engine.timing !== null) {
    lines.push(
      `Time per note (parse + generate + render, one at a time): p50 ${ms(engine.timing.p50Ms)} ms, p95 ${ms(engine.timing.p95Ms)} ms, mean ${ms(engine.timing.meanMs)} ms, max ${ms(engine.timing.maxMs)} ms.`,
    );
  }
  if (engine.failures > 0) lines.push(`FAILED: the engine threw on ${engine.failures} note(s); they score 0.`);
  lines.push(
    '',
    'Per section group: the engine against the reference note’s own sections (headings left out),',
    'mean over the notes whose reference has the group; "Filled" = of those, notes where the engine wrote',
    'something there; "Extra" = notes where the engine wrote the group and the reference has none.',
    '',
    ...table(
      ['Group', 'Notes', 'Filled', 'Extra', 'ROUGE-1', 'ROUGE-Lsum'],
      report.sections.map((section) => [
        section.group,
        String(section.references),
        String(section.filled),
        String(section.extra),
        score(section.rouge1),
        score(section.rougeLsum),
      ]),
    ),
  );
  const failed = report.perNote.filter((note) => note.engine.error !== null);
  for (const note of failed) lines.push(`  ${note.id}: ${note.engine.error ?? ''}`);
  if (options.unsupported === true) {
    lines.push('', 'Unsupported engine sentences (missing words / numbers):');
    for (const note of report.perNote) {
      for (const sentence of note.engine.unsupported) {
        const missing = [...sentence.missingWords, ...sentence.missingNumbers.map(String)].join(', ');
        lines.push(`  ${note.id} [${sentence.section}] ${sentence.text}  <- ${missing}`);
      }
    }
  }
  lines.push('', ...auditLines(report));
  lines.push('', `Engine: ${report.engine.name} ${report.engine.version}`, ...meta.machine);
  return `${lines.join('\n')}\n`;
}
