/**
 * Request windows aligned differently from the sandbox's: each key's window starts with its first
 * request (not at a multiple of the window's length), and the per-IP count is kept beside it. The
 * specification states the limits and that rejected requests count, not where a window starts.
 */
import type { WindowState } from "../../../behaviour/rate-windows.ts";

export class FirstRequestWindows {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  hit(id: string, now: number): WindowState {
    let window = this.windows.get(id);
    if (!window || now >= window.start + this.windowMs) this.windows.set(id, (window = { start: now, count: 0 }));
    window.count++;
    return {
      limit: this.limit,
      remaining: Math.max(0, this.limit - window.count),
      resetSeconds: Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000)),
      exceeded: window.count > this.limit,
    };
  }
}
