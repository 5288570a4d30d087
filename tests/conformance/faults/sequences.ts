/**
 * Faults the sequence phase catches (conformance/sequences/), two or more of each kind a rule
 * checked in one condition misses: another party (another account's key, another key of the
 * account), a failure path (a hold kept, a block that holds), a later moment (a finished job polled
 * again a while after its end), a repeat (the second identical search or create), an input at another
 * value (a fractional duration, a surcharge on several images). Each breaks a rule in a condition no
 * other fault uses. Their times are real seconds: the self-test's sandbox runs its clock faster.
 */
import { quoteRoute } from "../../../runtime/costs/quote.ts";
import { SANDBOX_CODES, type Reply } from "../../../behaviour/responses.ts";
import type { ServiceState } from "../../../behaviour/state.ts";
import {
  bodyOf,
  isCreate,
  isPoll,
  MODEL,
  named,
  omitted,
  polledJob,
  when,
  wrap,
  type CheckName,
  type Fault,
} from "./support.ts";

/** A finished job polled this long (real milliseconds) after it was first seen finished is "later". */
const LATER_MS = 1_000;

/** The sequences check's result for steps of `kind` (its template, conformance/checks/sequences.ts). */
const sequences = (kind: string): CheckName =>
  named("sequences", `every ${kind} in the sequences answers as the service model allows{where}`);

/** An answer hook that remembers, per job, when (real time) a poll first showed it in a terminal status. */
const laterPolls =
  (change: (body: Record<string, unknown>, fields: readonly string[]) => Record<string, unknown>): Fault["answer"] =>
  () => {
    const firstSeen = new Map<string, number>();
    return (answer, call, state) => {
      if (!isPoll(call) || answer.status !== 200) return answer;
      const job = polledJob(call, state);
      const status = String(bodyOf(answer).status);
      if (!job || !state.model.jobStatus.terminal.includes(status)) return answer;
      const seen = firstSeen.get(job.id) ?? Date.now();
      firstSeen.set(job.id, seen);
      if (Date.now() - seen < LATER_MS) return answer;
      const fields = state.areas.get(job.route.areaId)?.resultFields ?? [];
      return { ...answer, body: change(bodyOf(answer), fields) };
    };
  };

/** The route of the held price whose jobs end within a sequence (lip sync: 3D jobs outlast it). */
const heldPath = MODEL.createRoutes.find((route) => route.priceHeld && route.label === "LS-A")!.path;
const I_K_PATH = MODEL.createRoutes.find((route) => route.label === "I-K")!.path;
/** I-K's image_search surcharge, in total (the specification's figure, read from the price table in the fault's test). */
const IMAGE_SEARCH_SURCHARGE = 20;

/** The first answer to each create (by key, route and body) a sandbox gave, for the deduplicating fault. */
const creates = new WeakMap<ServiceState, Map<string, Reply>>();
const earlierCreates = (state: ServiceState): Map<string, Reply> => {
  let found = creates.get(state);
  if (!found) creates.set(state, (found = new Map()));
  return found;
};

export const SEQUENCE_FAULTS = {
  "poll-of-another-accounts-job": {
    breaks: ["auth.403", "errors.403"],
    bug: "a job polled with another account's key is answered as if the key owned it (the id alone is checked)",
    answer: when(
      (answer, call) => isPoll(call) && answer.status === 403,
      (answer, call, state) => {
        const job = polledJob(call!, state);
        return job ? { ...answer, status: 200, body: { status: state.jobs.statusAt(job, call!.now) } } : answer;
      },
    ),
  },
  "poll-by-another-key-refused": {
    breaks: ["auth.403", "service.poll-until-terminal"],
    bug: "a job is answered only to the key that created it: another key of the same account gets 403",
    answer: when(
      (answer, call, state) => {
        if (!isPoll(call) || answer.status !== 200) return false;
        const job = polledJob(call, state);
        return job !== undefined && job.key !== call.key;
      },
      (answer, _call, state) =>
        ({ ...answer, ...state.responses.forbidden("Not your job.", SANDBOX_CODES.forbidden) }) as typeof answer,
    ),
  },
  "hold-kept-on-timeout": {
    breaks: ["states.lip-sync-reserves-quote", "states.timeout", "service.charged-only-on-success"],
    bug: "a held price is released when its job fails, but not when it times out: the credits stay held",
    answer: () => {
      const kept = new Set<string>();
      return (answer, call, state) => {
        if (!isPoll(call) || bodyOf(answer).status !== state.model.jobStatus.timeout) return answer;
        const job = polledJob(call, state);
        if (job?.held && !kept.has(job.id)) {
          kept.add(job.id);
          call.account!.ledger.reserve(job.credits, true);
        }
        return answer;
      };
    },
  },
  "moderation-block-holds-price": {
    breaks: ["states.lip-sync-reserves-quote", "service.charged-only-on-success"],
    bug: "a create of a held-price model blocked by moderation reserves its quote, which nothing releases",
    answer: when(
      (answer, call, state) =>
        isCreate(call) &&
        call.op.path === heldPath &&
        answer.status === 400 &&
        state.model.errors.moderation.reasonField in bodyOf(answer),
      (answer, call, state) => {
        const quote = quoteRoute(
          state.priceTables,
          call!.op.path,
          call!.body ?? {},
          state.priceInputs((call!.body ?? {}) as Record<string, unknown>, state.priceTables[call!.op.path]!),
        );
        call!.account!.ledger.reserve(quote.credits ?? 0, true);
        return answer;
      },
    ),
  },
  "finished-job-running-later": {
    breaks: ["resources.job-status.terminal", "states.succeeded", "states.failed"],
    bug: "a finished job polled again a while after its end answers a running status (the job record is recycled)",
    answer: laterPolls((body, fields) => ({ ...omitted(body, fields), status: MODEL.jobStatus.values[1] })),
  },
  "results-gone-later": {
    breaks: ["states.succeeded", "resources.poll.images"],
    bug: "a succeeded job polled again a while after its end has lost its result fields",
    answer: laterPolls((body, fields) => (body.status === MODEL.jobStatus.success ? omitted(body, fields) : body)),
  },
  "repeated-search-free": {
    breaks: ["routes.stock-images", "routes.stock-sound-effects", "routes.stock-music"],
    bug: "a stock search repeated by the same key (same route and query) is served from a cache and not charged",
    answer: () => {
      const seen = new Set<string>();
      return (answer, call) => {
        if (call?.quote?.charged === "per-request" && answer.status === 200) {
          const search = `${call.key} ${call.op.path} ${call.query.toString()}`;
          if (seen.has(search)) call.account!.ledger.charge(-(call.quote.credits ?? 0));
          seen.add(search);
        }
        return answer;
      };
    },
  },
  "repeated-create-same-job": {
    breaks: ["service.create-returns-id-no-media", "service.metered-in-credits"],
    bug: "a create repeated by the same key with the same body is answered the first create's job (deduplicated): no second job, no second charge",
    rules: wrap("concurrency", (original) => (call, state) => {
      const reply = original(call, state);
      if (reply || !isCreate(call)) return reply;
      return earlierCreates(state).get(`${call.key} ${call.op.path} ${call.text}`);
    }),
    answer: when(
      (answer, call) => isCreate(call) && answer.status === 200,
      (answer, call, state) => {
        const created = earlierCreates(state);
        const key = `${call!.key} ${call!.op.path} ${call!.text}`;
        if (!created.has(key)) created.set(key, { status: answer.status, body: answer.body });
        return answer;
      },
    ),
  },
  "lip-sync-seconds-to-nearest": {
    breaks: ["lip-sync.price", "resources.create-response.credits-and-seconds"],
    bug: "lip sync bills the audio's seconds rounded to the nearest second, not up (7.2 s billed as 7)",
    rules: wrap("price", (original) => (call, state) => {
      const reply = original(call, state);
      const table = state.priceTables[call.op.path];
      if (reply || call.op.path !== heldPath || !call.quote || !table) return reply;
      const body = (call.body ?? {}) as Record<string, unknown>;
      const inputs = state.priceInputs(body, table);
      const rounded = Object.fromEntries(
        Object.entries(inputs).map(([field, value]) => [field, typeof value === "number" ? Math.round(value) : value]),
      );
      call.quote = quoteRoute(state.priceTables, call.op.path, body, rounded);
      return reply;
    }),
  },
  "image-search-charged-per-image": {
    breaks: ["images.further.i-k"],
    bug: "I-K's image_search surcharge, 20 credits in total, is charged for each image",
    rules: wrap("price", (original) => (call, state) => {
      const reply = original(call, state);
      const body = (call.body ?? {}) as Record<string, unknown>;
      if (reply || call.op.path !== I_K_PATH || body.image_search !== true || call.quote?.credits == null) return reply;
      const images = Number(body.num_images ?? 1);
      call.quote = { ...call.quote, credits: call.quote.credits + IMAGE_SEARCH_SURCHARGE * (images - 1) };
      return reply;
    }),
  },
} satisfies Record<string, Fault>;

export const SEQUENCE_CATCHES: Record<keyof typeof SEQUENCE_FAULTS, CheckName> = {
  "poll-of-another-accounts-job": sequences("poll"),
  "poll-by-another-key-refused": sequences("poll"),
  "hold-kept-on-timeout": sequences("credits read"),
  "moderation-block-holds-price": sequences("credits read"),
  "finished-job-running-later": sequences("poll"),
  "results-gone-later": sequences("poll"),
  "repeated-search-free": sequences("credits read"),
  "repeated-create-same-job": sequences("create"),
  "lip-sync-seconds-to-nearest": sequences("create"),
  "image-search-charged-per-image": sequences("credits read"),
};
