/** The outcome of a server whose run failed as a whole (an internal error, a worker that died): every file left as it was. */
import { ServerOutcome } from '../model/server-outcome';
import { ServerPlan } from '../server/types';
import { serverId } from './server-job';

export function failedOutcome(plan: ServerPlan, error: unknown): ServerOutcome {
  const message = `internal error, nothing of this server was changed: ${error instanceof Error ? error.message : String(error)}`;
  const files = plan.files.map((f) => ({ path: f.displayPath, role: f.role, status: 'error' as const, error: { path: f.displayPath, message } }));
  return {
    id: serverId(plan),
    main: plan.main?.displayPath ?? null,
    status: 'error',
    files,
    findings: [],
    modules: [],
    errors: [{ path: (plan.main ?? plan.files[0]).displayPath, message }],
    patch: '',
  };
}
