// Runs a refresh every few seconds without ever overlapping: the next run is scheduled only when the previous one
// has finished, a run asked for while one is in flight follows it, and nothing runs while the tab is hidden.

export class Poller {
  #task;
  #interval;
  #timer = null;
  #running = false;
  #inFlight = false;
  #again = false;

  constructor(task, intervalMs) {
    this.#task = task;
    this.#interval = intervalMs;
    document.addEventListener('visibilitychange', () => {
      if (!document.hidden) this.now();
    });
  }

  start() {
    this.#running = true;
    this.now();
  }

  stop() {
    this.#running = false;
    clearTimeout(this.#timer);
  }

  /** Refreshes at once, or right after the refresh in flight. */
  now() {
    if (!this.#running) return;
    if (this.#inFlight) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#run();
  }

  async #run() {
    this.#inFlight = true;
    try {
      await this.#task();
    } finally {
      this.#inFlight = false;
      if (this.#again) {
        this.#again = false;
        this.now();
      } else if (this.#running && !document.hidden) {
        this.#timer = setTimeout(() => this.now(), this.#interval);
      }
    }
  }
}
