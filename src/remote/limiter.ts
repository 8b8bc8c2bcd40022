/**
 * At most `limit` tasks run at once; the rest wait their turn in order. A few lines here beat a
 * dependency (p-limit) that would do the same.
 */
export class Limiter {
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    // A finishing task hands its slot straight to the next in line, so a newcomer can never slip in between.
    if (this.#running >= this.limit) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#running++;
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }
}
