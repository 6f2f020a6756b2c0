/** The variable through which jest's globalSetup tells each test file where to note the processes it starts. */
export const CHILD_LEDGER_ENV = 'NOTIFY_TEST_CHILD_LEDGER';
