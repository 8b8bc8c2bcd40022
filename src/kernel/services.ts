import { container as globalContainer, instancePerContainerCachingFactory, type DependencyContainer } from "tsyringe";
import { ERROR_CODES, PluginError } from "./errors.js";
import { tokenName, type Token } from "./tokens.js";

/** What one plugin registers during setup, held back until it has booted so a failed plugin leaves no trace. */
export interface Staged {
  readonly plugin: string;
  /** By token key (Token.key), with the token registered. */
  readonly services: Map<symbol, { readonly token: Token<unknown>; readonly provider: ServiceProvider }>;
  readonly contributions: [symbol, unknown][];
}

export type ServiceProvider =
  | { readonly kind: "value"; readonly value: unknown }
  | { readonly kind: "scoped"; readonly factory: (consumer: { readonly name: string }) => unknown };

/**
 * The kernel's services over tsyringe. The kernel has one container (a child of tsyringe's global
 * one, so kernels in one process never share registrations); each plugin resolves from a child
 * container of its own, where its scoped services live: its logger, and any service provided with
 * `provideScoped` (a cache namespace, a ranker), made once per consuming plugin on its first
 * resolve. Tokens are registered by their key, so two copies of one token name one service.
 */
export class ServiceRegistry {
  readonly #container: DependencyContainer = globalContainer.createChildContainer();
  /** Who provides each service, by token key: a plugin's name, or "kernel". */
  readonly #providers = new Map<symbol, string>();
  readonly #committed: Staged[] = [];
  /** The plugin each plugin container belongs to, for scoped factories. */
  readonly #owners = new WeakMap<DependencyContainer, string>();

  /** A service the kernel itself provides to every plugin. */
  provideKernelService<T>(token: Token<T>, value: T): void {
    this.#container.register(token.key, { useValue: value });
    this.#providers.set(token.key, "kernel");
  }

  /** A plugin's own container, with its scoped kernel services (its logger) registered in it. */
  containerFor(plugin: string, own: ReadonlyMap<Token<unknown>, unknown>): DependencyContainer {
    const child = this.#container.createChildContainer();
    this.#owners.set(child, plugin);
    for (const [token, value] of own) child.register(token.key, { useValue: value });
    return child;
  }

  stage(plugin: string): Staged {
    return { plugin, services: new Map(), contributions: [] };
  }

  /** Stage one service, refusing a second provider of the same token. */
  provide(staged: Staged, token: Token<unknown>, provider: ServiceProvider): void {
    const owner = this.#providers.get(token.key) ?? (staged.services.has(token.key) ? staged.plugin : undefined);
    if (owner) {
      throw new PluginError(
        staged.plugin,
        `service "${tokenName(token)}" is already provided by ${owner === "kernel" ? "the kernel" : `plugin "${owner}"`}`,
        {
          code: ERROR_CODES.SERVICE_CONFLICT,
        },
      );
    }
    staged.services.set(token.key, { token, provider });
  }

  /** Stage one contribution; named ones (tools, sources, transports) must be unique per token. */
  contribute(staged: Staged, token: Token<unknown>, value: unknown): void {
    // Tools, sources and transports are objects named by their `name`; a function's own `name`
    // (an inline server extension's is "") names nothing.
    const named = typeof value === "object" && value !== null ? (value as { name?: unknown }).name : undefined;
    if (
      named !== undefined &&
      this.contributions(token, staged).some((existing) => (existing as { name?: unknown }).name === named)
    ) {
      throw new PluginError(staged.plugin, `a ${tokenName(token)} named "${String(named)}" is already registered`, {
        code: ERROR_CODES.SERVICE_CONFLICT,
      });
    }
    staged.contributions.push([token.key, value]);
  }

  /** Make a plugin's registrations visible to every plugin after it. */
  commit(staged: Staged): void {
    for (const [key, { provider }] of staged.services) {
      if (provider.kind === "value") this.#container.register(key, { useValue: provider.value });
      else {
        const made = instancePerContainerCachingFactory((from) =>
          provider.factory({ name: this.#owners.get(from) ?? "kernel" }),
        );
        this.#container.register(key, { useFactory: made });
      }
      this.#providers.set(key, staged.plugin);
    }
    this.#committed.push(staged);
  }

  /**
   * Take back what a plugin registered (it booted, then failed to start). tsyringe cannot
   * unregister, so each service is shadowed by one that says why it is gone.
   */
  withdraw(plugin: string): void {
    const index = this.#committed.findIndex((staged) => staged.plugin === plugin);
    if (index === -1) return;
    const [staged] = this.#committed.splice(index, 1);
    for (const { token } of staged!.services.values()) {
      this.#container.register(token.key, {
        useFactory: () => {
          throw new Error(`service "${tokenName(token)}" is gone: plugin "${plugin}" did not start`);
        },
      });
    }
  }

  has(token: Token<unknown>, staged?: Staged): boolean {
    return (staged?.services.has(token.key) ?? false) || this.#container.isRegistered(token.key, true);
  }

  /** A service as `from` (a plugin's container) sees it; the plugin's own staged services first. */
  resolve<T>(from: DependencyContainer, token: Token<T>, staged?: Staged): T {
    const own = staged?.services.get(token.key)?.provider;
    if (own) return (own.kind === "value" ? own.value : own.factory({ name: staged!.plugin })) as T;
    return from.resolve(token.key) as T;
  }

  /** Every contribution under a token, in boot order; with `staged`, that plugin's own too. */
  contributions<T>(token: Token<T>, staged?: Staged): T[] {
    return [...this.#committed, ...(staged ? [staged] : [])].flatMap((s) =>
      s.contributions.filter(([key]) => key === token.key).map(([, value]) => value as T),
    );
  }
}
