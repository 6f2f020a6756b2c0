import { execFileSync } from 'node:child_process';
import { lstatSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The product speaks about itself, not about how it was made. No tracked file names a round of
 * work, a work session, who did something, or a tracker number: comments say why, docs say what,
 * and how a change or a figure came about belongs in the git log. Every file `git ls-files` lists
 * is read (package-lock.json and this file, which holds the pattern list and its examples, are
 * skipped) and each hit is named file:line.
 *
 * The patterns are narrow on purpose: an admin login session, an SMPP session, round robin, a
 * round trip, `Math.round`, a probe round, ReceiptTracker or an HTML entity are product words.
 */
const ROOT = resolve(__dirname, '../..');
const SELF = 'test/ops/process-words.test.ts';
const SKIPPED = new Set(['package-lock.json', SELF]);

/**
 * Each pattern is written with plain spaces; a space matches any run of white space and comment
 * markers, so a phrase wrapped over two lines of a doc or a comment is still one phrase.
 */
const SEPARATOR = String.raw`(?:[\s*]|\/\/|#|--)+`;
const rule = (what: string, source: string, flags = 'i') => ({ what, pattern: new RegExp(source.replaceAll(' ', SEPARATOR), `${flags}g`) });

const PROCESS_WORDS: ReadonlyArray<{ what: string; pattern: RegExp }> = [
  rule('a numbered work session', String.raw`\bsessions? [0-9]+\b`),
  rule('other people or sessions at work', String.raw`\b(?:other|another|earlier|previous|last) (?:sessions?|helpers?|engineers?)(?:'s|')?(?![\w-])`),
  rule('a named helper', String.raw`\bhelper-[A-Z]\b|\b(?:this|that) helper's\b|\bnot this helper\b`, ''),
  rule('lead of the work', String.raw`\b(?:the|to the) lead(?:'s)?\b(?!(?: |-)(?:time|in)\b)`),
  rule('an issue number', String.raw`\bissues? #?[0-9]+(?:\.[0-9]+)?\b(?! (?:commands?|requests?|calls?|queries|jobs?|writes?)\b)`),
  rule('a tracker number', String.raw`(?:^|[\s([{,;:])#[0-9]+\b(?![;}])`, 'm'),
  rule('a tracker', String.raw`\btracker (?:issue|number|item)s?\b|\b(?:issue|bug) tracker\b`),
  rule('a round of work', String.raw`\bround [0-9]+\b|\brounds? of (?:work|review|changes|fixes)\b|\b(?:this|last|previous|earlier) round\b`),
  rule("an issue's numbered goal", String.raw`\bgoals? [0-9]+\b`),
  rule('a person label', String.raw`\bP[0-9](?:'s\b|,)`, ''),
  rule('a commit as the source of a figure', String.raw`\b(?:[Cc]ommits?|HEAD(?: at)?) [0-9a-f]{7,40}\b`, ''),
];

/** Every hit in one file's text, as `path:line: what ("matched text")`. */
function hits(path: string, text: string): string[] {
  const found: { line: number; text: string }[] = [];
  for (const { what, pattern } of PROCESS_WORDS) {
    for (const match of text.matchAll(pattern)) {
      const line = text.slice(0, match.index).split('\n').length + (match[0].match(/^\s*\n/) ? 1 : 0);
      found.push({ line, text: `${path}:${line}: ${what} (${JSON.stringify(match[0].trim().replace(/\s+/g, ' '))})` });
    }
  }
  return found.sort((a, b) => a.line - b.line).map((hit) => hit.text);
}

/** The tracked files that are text: symlinks, directories (a submodule) and binaries are left out. */
function trackedTextFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).split('\0');
  return listed.filter((path) => {
    if (path === '' || SKIPPED.has(path)) return false;
    const stat = lstatSync(join(ROOT, path), { throwIfNoEntry: false });
    return stat !== undefined && stat.isFile();
  });
}

describe('no development-process words in the tracked tree', () => {
  it('names none in any tracked file', () => {
    const files = trackedTextFiles();
    expect(files.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const path of files) {
      const bytes = readFileSync(join(ROOT, path));
      if (bytes.subarray(0, 8000).includes(0)) continue; // binary
      found.push(...hits(path, bytes.toString('utf8')));
    }
    expect(found).toEqual([]);
  });

  // Examples that name a process word are written in pieces (`${' '}`), so that a plain grep of the
  // tree for those words does not find this file either.
  it('finds each kind of process word where one is written (the check can fail)', () => {
    const examples = [
      `measured in session${' '}7`,
      'sessions 5-7 agree',
      "other sessions' benches ran",
      'another helper ran a load test',
      'other engineers were running tests',
      `the webhooks package (helper${'-'}C)`,
      "not this helper's file",
      `Proposed to the${' '}lead.`,
      `the${' '}lead's quiet re-run decides`,
      `the history store of issue${' '}12`,
      `Issue${' '}9.2: the first call times out`,
      'fixed in #24',
      'see (#3)',
      'filed in the issue tracker',
      'the tracker issue says',
      'in round 2 the cut was kept',
      'after two rounds of review',
      'the levers of this round',
      'goal 3 of the issue',
      'Goals 1 and 2',
      "P2's hook",
      'the archiver side (P2, see below)',
      'before (HEAD at 81f486b)',
      'commit 698f16f cut it',
    ];
    for (const example of examples) expect([example, hits('example.md', example)]).toEqual([example, [expect.stringContaining('example.md:1: ')]]);
  });

  it('leaves the product words alone', () => {
    const product = [
      'A browser signs in with an HttpOnly, SameSite=Strict session cookie',
      'admin sessions live in Redis; the session store refuses an expired one',
      'one bound transceiver session per provider; it would stop reading this session',
      'the generator sends round-robin over them (round robin)',
      'one more round trip per request; it round-trips any remaining time',
      'a failed probe round; Math.round(report.elapsedMs); `round ${i}: ${calls} calls`',
      "const ESCAPES = { '&': '&amp;', \"'\": '&#39;' }; box-shadow:0 2px 12px #0002;padding:2rem",
      'private readonly tracker = new ReceiptTracker(); tracker.track(id)',
      `the${' '}lead time of a reminder`,
      'for day = first, today do fields[#fields + 1] = id end',
      'the seeding helper; SMTP helpers; a helper function',
      `an issue with the certificate; the api issues${' '}2 commands per request`,
      'the goal of the bench: >= 0.7 of the ceiling',
      'p1 and p2 are permits; PostgreSQL 15; the commit of a batch',
    ];
    expect(product.flatMap((text) => hits('product.md', text))).toEqual([]);
  });
});
