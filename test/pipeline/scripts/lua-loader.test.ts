import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LUA_INCLUDES_DIR, PIPELINE_LUA_DIR, PIPELINE_SCRIPTS, loadLuaSource } from '@notify/pipeline';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lua-includes-'));
  writeFileSync(join(dir, 'a.lua'), 'local function a() return 1 end\n');
  writeFileSync(join(dir, 'b.lua'), '--- @include "a"\nlocal function b() return a() + 1 end\n');
  writeFileSync(join(dir, 'loop.lua'), '--- @include "loop"\n');
  writeFileSync(join(dir, 'script-1.lua'), '--- @include "b"\n--- @include "a"\nreturn b()\n');
  writeFileSync(join(dir, 'cyclic-1.lua'), '--- @include "loop"\nreturn 1\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the Lua loader', () => {
  it('pastes each included fragment once, nested includes first, at load time', () => {
    const source = loadLuaSource(join(dir, 'script-1.lua'), dir);
    expect(source.match(/local function a\(\)/g)).toHaveLength(1);
    expect(source.indexOf('local function a()')).toBeLessThan(source.indexOf('local function b()'));
    expect(source).not.toMatch(/^--- @include/m);
  });

  it('refuses an include cycle', () => {
    expect(() => loadLuaSource(join(dir, 'cyclic-1.lua'), dir)).toThrow(/cycle/);
  });

  it('leaves no include unresolved in the pipeline scripts, and no fragment pasted by hand', () => {
    for (const script of PIPELINE_SCRIPTS) {
      const source = loadLuaSource(join(PIPELINE_LUA_DIR, `${script}.lua`), LUA_INCLUDES_DIR);
      expect(source).not.toMatch(/^--- @include/m);
      expect(source.match(/local function isTerminal/g)?.length ?? 0).toBeLessThanOrEqual(1);
    }
  });
});
