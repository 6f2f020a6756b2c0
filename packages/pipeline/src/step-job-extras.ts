import type { QuietRule } from '@notify/core';
import type { StepJobData } from './job-data';

/**
 * What a step job carries beside its pointer, decided at intake and kept in the record too
 * (`expiresAt`, `quiet`, `cat` with the record's `tenant`), so a job rebuilt from the record
 * (the intake sweeper re-adding a lost one, the releaser starting a scheduled one) waits out
 * the same quiet hours, is shortened to the same expiry and checks the same opt-outs.
 */
export const JOB_EXTRA_FIELDS = ['expiresAt', 'quiet', 'cat', 'tenant'] as const;

export type StepJobExtras = Pick<StepJobData, 'expiresAt' | 'quiet' | 'category' | 'tenant'>;

/** The extras from the record's JOB_EXTRA_FIELDS values, in that order (absent fields are null or ''). */
export function jobExtrasFrom(values: readonly (string | null | undefined)[]): StepJobExtras {
  const [expiresAt, quiet, category, tenant] = values;
  return {
    ...(expiresAt ? { expiresAt: Number(expiresAt) } : {}),
    ...(quiet ? { quiet: JSON.parse(quiet) as QuietRule } : {}),
    // The tenant always (a lane's fair share groups by it); the category only for a non-required one (intake writes `cat` only then).
    ...(tenant ? { tenant } : {}),
    ...(category && tenant ? { category } : {}),
  };
}
