import { USAGE_METRICS, type UsageDay, type UsageQuery } from '@chartwright/protocol';

import type { Clock } from '../clock.js';
import { toCsv } from '../console/csv.js';
import type { ConsolePrincipal } from '../console/principal.js';
import type { ProjectService } from '../projects/project-service.js';
import type { Repositories } from '../store/repositories.js';
import { utcDay } from './usage-recorder.js';

const DAY_MS = 86_400_000;
const DEFAULT_DAYS = 30;

/** Usage per project environment and UTC day, for the organisation's projects only. */
export class UsageReport {
  constructor(
    private readonly repositories: Repositories,
    private readonly projects: ProjectService,
    private readonly clock: Clock,
  ) {}

  async days(principal: ConsolePrincipal, query: UsageQuery): Promise<UsageDay[]> {
    const projectIds =
      query.projectId === undefined
        ? (await this.projects.list(principal.organisationId)).map((project) => project.id)
        : [(await this.projects.requireInOrganisation(query.projectId, principal.organisationId)).id];
    const now = this.clock.now();
    const rows = await this.repositories.usageCounters.list({
      projectIds,
      ...(query.environment === undefined ? {} : { environment: query.environment }),
      fromDay: query.from ?? utcDay(now - (DEFAULT_DAYS - 1) * DAY_MS),
      toDay: query.to ?? utcDay(now),
    });
    const days = new Map<string, UsageDay>();
    for (const row of rows) {
      const key = `${row.day}\n${row.project_id}\n${row.environment}`;
      let day = days.get(key);
      if (day === undefined) {
        day = {
          projectId: row.project_id,
          environment: row.environment,
          day: row.day,
          restRequests: 0,
          notesGenerated: 0,
          realtimeAudioSeconds: 0,
          widgetTokens: 0,
        };
        days.set(key, day);
      }
      day[row.metric] += row.count;
    }
    return [...days.values()];
  }

  async csv(principal: ConsolePrincipal, query: UsageQuery): Promise<string> {
    const days = await this.days(principal, query);
    return toCsv(
      [
        'day',
        'project_id',
        'environment',
        ...USAGE_METRICS.map((metric) => metric.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)),
      ],
      days.map((day) => [day.day, day.projectId, day.environment, ...USAGE_METRICS.map((metric) => day[metric])]),
    );
  }
}
