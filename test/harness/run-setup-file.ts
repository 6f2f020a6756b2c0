// By path, not the package index: this runs before every unit and integration file, and needs only these modules.
import { recordChildrenIn } from '../../packages/platform-kit/src/processes/child-ledger';
import { shareInitdbIn } from '../../packages/platform-kit/src/services/postgres-template';
import { childrenDir, RUN_DIR_ENV } from './run-dir';

// Jest setupFiles, in each test file's module registry: the file's process groups note their
// children for run-teardown.ts, and its private PostgreSQLs copy the run's one initdb.
const runDir = process.env[RUN_DIR_ENV];
recordChildrenIn(runDir === undefined ? undefined : childrenDir(runDir));
shareInitdbIn(runDir);
