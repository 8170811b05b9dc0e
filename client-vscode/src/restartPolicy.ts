/** When a server that was running stops: restart it, up to `max` times in `windowMs`. */
export class RestartPolicy {
  private readonly restarts: number[] = [];

  constructor(
    readonly max = 3,
    readonly windowMs = 3 * 60 * 1000,
  ) {}

  /** Records a crash at `now`; true to restart, false to give up. */
  shouldRestart(now: number): boolean {
    this.restarts.push(now);
    while (this.restarts.length && now - this.restarts[0] > this.windowMs) {
      this.restarts.shift();
    }
    return this.restarts.length <= this.max;
  }

  /** Crashes counted in the current window. */
  get count(): number {
    return this.restarts.length;
  }
}
