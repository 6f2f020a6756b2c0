import { join } from 'node:path';

/** The variable through which jest's globalSetup tells each test file the run's own directory. */
export const RUN_DIR_ENV = 'NOTIFY_TEST_RUN_DIR';

/** Where the run's test files note the processes they start (run-teardown.ts kills what is left). */
export const childrenDir = (runDir: string) => join(runDir, 'children');
