/**
 * How fast this machine runs JavaScript, as Lighthouse measures it: its BenchmarkIndex (Lighthouse's
 * own page function, run in a page of the browser under test; Lighthouse records the same figure in
 * every report as "CPU/Memory Power"). Time budgets set on one machine mean nothing on a machine half
 * as fast, and Lighthouse's mobile preset slows the CPU 4x whatever the host: its documentation
 * (docs/throttling.md, "Calibrating the CPU slowdown") says the 4x turns a high-end desktop
 * (BenchmarkIndex 1500-2000) into a mid-tier phone, and a low-end desktop (1000-1500) needs 2x. The
 * benchmarks here scale to the middle of the high-end bracket, where their aims were set: a slower
 * host gets a proportionally smaller CPU slowdown and proportionally longer time budgets, a faster one
 * the aims as they are.
 */
import { pageFunctions } from 'lighthouse/core/lib/page-functions.js';

/** The BenchmarkIndex the aims and Lighthouse's 4x assume: the middle of the high-end desktop bracket. */
export const REFERENCE_BENCHMARK_INDEX = 1750;

/**
 * The median BenchmarkIndex of five runs in `page` (a Playwright page), after one that warms up V8.
 * Each run takes about half a second.
 */
export async function benchmarkIndex(page) {
  const script = `(${pageFunctions.computeBenchmarkIndex.toString()})()`;
  await page.evaluate(script);
  const runs = [];
  for (let i = 0; i < 5; i++) runs.push(Number(await page.evaluate(script)));
  runs.sort((a, b) => a - b);
  return Math.round(runs[2] ?? 0);
}

/** Lighthouse's mobile CPU slowdown for this host: 4x at the reference index, less on a slower host, at least 1x. */
export function mobileCpuSlowdown(index) {
  return Math.min(4, Math.max(1, Math.round((40 * index) / REFERENCE_BENCHMARK_INDEX) / 10));
}

/** How many times slower than the reference this host is (1 for the reference or a faster host). */
export function slowerThanReference(index) {
  return Math.max(1, REFERENCE_BENCHMARK_INDEX / Math.max(1, index));
}
