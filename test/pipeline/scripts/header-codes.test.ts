import { join } from 'node:path';
import {
  BEGIN_ATTEMPT_CODES,
  CANCEL_NOTIFICATION_CODES,
  CLAIM_ARCHIVE_CODES,
  COMPACT_ARCHIVED_CODES,
  FINISH_ATTEMPT_CODES,
  FINISH_NOTIFICATION_CODES,
  INTAKE_CODES,
  PARK_CODES,
  RESTORE_PARKED_CODES,
  PIPELINE_LUA_DIR,
  PIPELINE_SCRIPTS,
  RELEASE_ARCHIVE_CODES,
  RELEASE_DUE_CODES,
  SCHEDULE_STEP_CODES,
  type ReturnCodes,
} from '@notify/pipeline';
import { headerReturnCodes } from './lua-header';

const CONSTANTS: Record<(typeof PIPELINE_SCRIPTS)[number], ReturnCodes> = {
  'intake-9': INTAKE_CODES,
  'begin-attempt-4': BEGIN_ATTEMPT_CODES,
  'finish-attempt-4': FINISH_ATTEMPT_CODES,
  'schedule-step-5': SCHEDULE_STEP_CODES,
  'finish-notification-3': FINISH_NOTIFICATION_CODES,
  'claim-archive-1': CLAIM_ARCHIVE_CODES,
  'compact-archived-2': COMPACT_ARCHIVED_CODES,
  'release-archive-1': RELEASE_ARCHIVE_CODES,
  'release-due-3': RELEASE_DUE_CODES,
  'cancel-notification-5': CANCEL_NOTIFICATION_CODES,
  'park-1': PARK_CODES,
  'restore-parked-2': RESTORE_PARKED_CODES,
};

describe.each(PIPELINE_SCRIPTS)('%s.lua', (script) => {
  it('lists in its header exactly the return codes its TypeScript constant names', () => {
    expect(headerReturnCodes(join(PIPELINE_LUA_DIR, `${script}.lua`))).toEqual({ ...CONSTANTS[script] });
  });
});
