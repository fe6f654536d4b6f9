/** The machine's CPU from /proc/stat: parsing, the busy cores between two readings, and absence saying nothing. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { machineCpuBetween, parseProcStat, readMachineCpu, statCpuMicros } from './machine-cpu.js';

/** A /proc/stat of two cores: user nice system idle iowait irq softirq steal guest guest_nice. */
const stat = (cpu: readonly number[]): string =>
  [
    `cpu  ${cpu.join(' ')} 0 0`,
    'cpu0 1 0 1 1 0 0 0 0 0 0',
    'cpu1 1 0 1 1 0 0 0 0 0 0',
    'intr 1 2 3',
    'ctxt 99',
    '',
  ].join('\n');

describe('parseProcStat', () => {
  it('counts everything but idle and iowait as busy, and the cpuN lines as cores', () => {
    // user 100, nice 10, system 40, idle 800, iowait 20, irq 5, softirq 15, steal 10
    expect(parseProcStat(stat([100, 10, 40, 800, 20, 5, 15, 10]))).toEqual({ busy: 180, total: 1000, cores: 2 });
  });

  it.each([
    ['no aggregate line', 'cpu0 1 2 3 4\nintr 1\n'],
    ['no cpuN lines', 'cpu  1 2 3 4 5 6 7 8\n'],
    ['a counter that is not a number', stat([1, 2, 3, Number.NaN, 5, 6, 7, 8])],
    ['an empty text', ''],
  ])('gives undefined for %s', (_name, text) => {
    expect(parseProcStat(text)).toBeUndefined();
  });
});

describe('machineCpuBetween', () => {
  it('gives the busy share of the ticks times the cores', () => {
    const from = { busy: 1000, total: 5000, cores: 2 };
    // 600 ticks passed on 2 cores (3 s at 100 Hz), 570 of them busy: 1.9 cores
    expect(machineCpuBetween(from, { busy: 1570, total: 5600, cores: 2 })).toEqual({ busyCores: 1.9, cores: 2 });
    expect(machineCpuBetween(from, { busy: 1120, total: 5600, cores: 2 })).toEqual({ busyCores: 0.4, cores: 2 });
  });

  it.each([
    ['a missing first reading', undefined, { busy: 2, total: 4, cores: 2 }],
    ['a missing second reading', { busy: 2, total: 4, cores: 2 }, undefined],
    ['no tick between the readings', { busy: 2, total: 4, cores: 2 }, { busy: 2, total: 4, cores: 2 }],
    ['a core count that changed', { busy: 2, total: 4, cores: 2 }, { busy: 9, total: 20, cores: 4 }],
  ])('says nothing for %s', (_name, from, to) => {
    expect(machineCpuBetween(from, to)).toBeUndefined();
  });
});

describe('readMachineCpu', () => {
  it('reads a stat file, and gives undefined where there is none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'erpcert-proc-stat-'));
    try {
      const file = join(dir, 'stat');
      writeFileSync(file, stat([100, 10, 40, 800, 20, 5, 15, 10]));
      expect(readMachineCpu(file)).toEqual({ busy: 180, total: 1000, cores: 2 });
      expect(readMachineCpu(join(dir, 'absent'))).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('statCpuMicros', () => {
  it('adds utime and stime (fields 14 and 15, in 1/100 s) of a stat file, a command name with spaces included', () => {
    const dir = mkdtempSync(join(tmpdir(), 'erpcert-proc-pid-stat-'));
    try {
      const file = join(dir, 'stat');
      // pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime ...
      writeFileSync(file, '4242 (node (worker) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 11 0\n');
      expect(statCpuMicros(file)).toBe(3_250_000);
      expect(statCpuMicros(join(dir, 'absent'))).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
