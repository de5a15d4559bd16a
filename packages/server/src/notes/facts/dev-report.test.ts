import { it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { parseConversation } from '../../text/parse-conversation.js';
import { exchanges } from './fixtures/exchanges.js';
import { forbiddenFound, matchFacts } from './fixtures/match.js';
import { extractFacts } from './sheet.js';
import { findCuratedTemplate } from '../templates.js';

it('report', () => {
  const template = findCuratedTemplate('history_and_physical')!;
  const out: string[] = [];
  let pass = 0;
  for (const ex of exchanges) {
    const { facts } = extractFacts({ template, conversation: parseConversation(ex.conversation), context: {} });
    const { missing, wrong } = matchFacts(facts, ex.expect);
    const forb = forbiddenFound(facts, ex.forbid ?? []);
    if (missing.length + wrong.length + forb.length === 0) { pass++; out.push(`PASSNAME ${ex.theme}: ${ex.name}`); continue; }
    out.push(`### ${ex.theme}: ${ex.name}\n${ex.conversation}`);
    for (const m of missing) out.push(`  MISSING ${m.kind} ${m.polarity} ${JSON.stringify(m.mentions)} ${m.subject ? JSON.stringify(m.subject) : ''} ${m.details ? JSON.stringify(m.details) : ''}`);
    for (const w of wrong) out.push(`  WRONG ${w.expected.kind} ${JSON.stringify(w.expected.mentions)}: ${w.differences.join('; ')}`);
    for (const f of forb) out.push(`  FORBIDDEN ${JSON.stringify(f).slice(0, 200)}`);
    out.push('  ACTUAL: ' + facts.map((f) => `${f.kind}:${f.text}(${f.polarity},${f.subject.type === 'relative' ? f.subject.relation : f.subject.type})`).join(' | '));
  }
  writeFileSync('/tmp/fact-report.txt', `PASS ${pass}\n` + out.join('\n'));
});
