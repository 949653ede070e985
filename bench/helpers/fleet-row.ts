import type { Timing } from '../startup.ts';
import type { FleetRow } from './figures.ts';

/** A timed figure against its timed floor: wall medians, the ratio of walls against `≤ target×`, CPU beside. */
export function fleetRow(figure: string, now: Timing, floor: Timing, floorWhat: string, target: number): FleetRow {
  const ratio = now.wallMs / floor.wallMs;
  return {
    figure,
    floor: `${floorWhat}: ${floor.wallMs.toFixed(1)} ms (CPU ${floor.cpuMs.toFixed(0)})`,
    now: `${now.wallMs.toFixed(1)} ms (CPU ${now.cpuMs.toFixed(0)})`,
    ratio: `${ratio.toFixed(2)}× (CPU ${(now.cpuMs / floor.cpuMs).toFixed(2)}×)`,
    target: `≤ ${target}×`,
    met: ratio <= target,
  };
}
