// By path, not the package index: this runs before every unit and integration file, and needs only this module.
import { recordChildrenIn } from '../../packages/platform-kit/src/processes/child-ledger';
import { CHILD_LEDGER_ENV } from './child-ledger-env';

// Jest setupFiles, in each test file's module registry: the file's process groups note their children for run-teardown.ts.
recordChildrenIn(process.env[CHILD_LEDGER_ENV]);
