/**
 * Note generation with the offline engine, in this process on one core: parse the conversation,
 * generate, render — what POST /api/v1/notes spends on a note beside HTTP and storage. Driven by
 * the dialogues of the ACI-Bench valid split (read from the shared data folder, never copied into
 * the project).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createHistogram, performance } from 'node:perf_hooks';

import type { Template } from '@chartwright/protocol';
import { extractiveGenerator } from '@chartwright/server/internal/notes/engines/extractive/index.js';
import { renderNote } from '@chartwright/server/internal/notes/render.js';
import { findCuratedTemplate } from '@chartwright/server/internal/notes/templates.js';
import { parseConversation } from '@chartwright/server/internal/text/parse-conversation.js';

import type { Measurement, Scenario } from './runner.js';

function dialogues(path: string): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (JSON.parse(line) as { dialogue: string }).dialogue);
}

type NoteWork = (text: string, template: Template) => Promise<unknown>;

const parseOnly: NoteWork = (text) => Promise.resolve(parseConversation(text));

const generateNote: NoteWork = async (text, template) => {
  const note = await extractiveGenerator.generate({ template, conversation: parseConversation(text), context: {} });
  return renderNote(note.sections);
};

export const PARSE_ONLY = 'conversation parsing only (valid dialogues)';

/** The baseline: parsing alone, so note generation reads as a multiple of the cheapest step. */
export function conversationParsingScenario(path: string): Scenario {
  return dialogueScenario(PARSE_ONLY, path, parseOnly);
}

export function noteGenerationScenario(path: string): Scenario {
  return {
    ...dialogueScenario('note generation, extractive (valid dialogues)', path, generateNote),
    baseline: PARSE_ONLY,
  };
}

function dialogueScenario(name: string, path: string, work: NoteWork): Scenario {
  return {
    name,
    async measure({ settings, progress }): Promise<Measurement> {
      const empty = { responses: 0, seconds: 0, requestsPerSecond: 0, p50Ms: 0, p95Ms: 0, p99Ms: 0 };
      if (!existsSync(path)) return { ...empty, problems: [`no data at ${path} (set BENCH_NOTES_JSONL)`] };
      const template = findCuratedTemplate('history_and_physical');
      if (template === undefined) return { ...empty, problems: ['the history_and_physical template is missing'] };
      const texts = dialogues(path);
      const one = (text: string) => work(text, template);
      progress(`${name}: warming up ${settings.warmupSeconds} s`);
      const warmupEnd = performance.now() + settings.warmupSeconds * 1000;
      for (let index = 0; performance.now() < warmupEnd || index < texts.length; index += 1) {
        await one(texts[index % texts.length] ?? '');
      }
      progress(`${name}: measuring ${settings.durationSeconds} s`);
      const latencies = createHistogram({ lowest: 1, highest: 60_000_000, figures: 3 });
      const start = performance.now();
      const end = start + settings.durationSeconds * 1000;
      let notes = 0;
      while (performance.now() < end) {
        const text = texts[notes % texts.length] ?? '';
        const began = performance.now();
        await one(text);
        latencies.record(Math.max(1, Math.round((performance.now() - began) * 1000)));
        notes += 1;
      }
      const seconds = (performance.now() - start) / 1000;
      return {
        responses: notes,
        seconds,
        requestsPerSecond: notes / seconds,
        p50Ms: latencies.percentile(50) / 1000,
        p95Ms: latencies.percentile(95) / 1000,
        p99Ms: latencies.percentile(99) / 1000,
        problems: [],
      };
    },
  };
}
