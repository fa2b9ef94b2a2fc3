import { readFile } from 'node:fs/promises';

/** A process's CPU time so far (user + system), in microseconds, from /proc (Linux). */
export async function cpuMicros(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 10_000;
}

/** A process and its descendants (a cluster's primary and its workers), from /proc (Linux). */
export async function processTree(pid: number): Promise<number[]> {
  const children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  const ids = children.trim().split(/\s+/).filter(Boolean).map(Number);
  return [pid, ...(await Promise.all(ids.map(processTree))).flat()];
}

/** CPU time of a process and its descendants, in microseconds. */
export async function treeCpuMicros(pid: number): Promise<number> {
  const times = await Promise.all((await processTree(pid)).map(cpuMicros));
  return times.reduce((sum, time) => sum + time, 0);
}

/** Resident memory of a process and its descendants, in MiB. */
export async function treeRssMb(pid: number): Promise<number> {
  const sizes = await Promise.all((await processTree(pid)).map(rssMb));
  return sizes.reduce((sum, size) => sum + size, 0);
}

/** A process's resident memory, in MiB, from /proc (Linux). */
export async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}
