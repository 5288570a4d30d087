/**
 * One conformance run against one target: the operations it declares, the transport, the results,
 * and the observers every response goes through (429 variants, Prism proxy violations).
 */
import type { CheckGroup, TargetConfig } from "./config.ts";
import type { Contract, ContractOperation } from "./contract.ts";
import { bearer, curl, send, type Exchange, type RequestSpec, type Transport } from "./http.ts";
import { Results } from "./results.ts";
import { checkTooManyRequests } from "./checks/rate-limits.ts";
import { recordProxyViolations } from "./checks/prism-proxy.ts";

export class Session {
  readonly results = new Results();
  /** Responses with status 429 seen during the run. */
  tooManyRequests = 0;

  constructor(
    readonly contract: Contract,
    readonly config: TargetConfig,
    readonly transport: Transport,
    /** Whether a Prism validation proxy sits between the suite and the target. */
    readonly proxied: boolean,
  ) {}

  /** The operations the target declares it implements (areas and models). */
  selected(): ContractOperation[] {
    return this.contract.operations.filter((op) => this.implements(op));
  }

  implements(op: ContractOperation): boolean {
    const { areas, models } = this.config;
    if (areas && !areas.includes(op.area)) return false;
    return !(models && op.model && !models.includes(op.model));
  }

  runs(group: CheckGroup): boolean {
    return !this.config.skipGroups.includes(group);
  }

  authorized(): Record<string, string> {
    return bearer(this.transport.apiKey);
  }

  curl(request: RequestSpec): string {
    return curl(this.transport, request);
  }

  /**
   * Sends one request. `positive` marks a request the description says is valid, so any request
   * violation Prism's proxy reports for it is a fault of the description or of the suite.
   */
  async call(op: ContractOperation, request: RequestSpec, positive: boolean): Promise<Exchange> {
    const exchange = await send(this.transport, request);
    if (exchange.status === 429) {
      this.tooManyRequests++;
      checkTooManyRequests(this, op, exchange);
    }
    if (this.proxied) recordProxyViolations(this, op, exchange, positive);
    return exchange;
  }
}
