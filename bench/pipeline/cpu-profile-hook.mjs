// Loaded with NODE_OPTIONS=--import (node 20 refuses --cpu-prof there): profiles the whole
// process with the inspector and writes <BENCH_CPU_PROF_DIR>/<name>-<pid>.cpuprofile on exit.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const dir = process.env.BENCH_CPU_PROF_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.start');
  process.on('exit', () => {
    // A session in the main thread answers synchronously: the profile is written before exit.
    session.post('Profiler.stop', (error, result) => {
      if (error || !result) return;
      const name = /apps\/(\w+)\//.exec(process.argv.join(' '))?.[1] ?? 'node';
      writeFileSync(join(dir, `${name}-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
