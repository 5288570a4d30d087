/**
 * Faults of the poll routes, generated per area from the catalogue's `<area>.poll` and
 * `resources.poll.<area>` rules: an area's poll route not mounted, or its result misshapen; and
 * faults of every poll: no status, 3D files deleted at once, completion not observable by polling.
 */
import { Contract } from "../../../contract/contract.ts";
import type { AreaModel } from "../../../model/service-model.ts";
import { sandboxDeclaration } from "../support/sandbox-declaration.ts";
import type { Call } from "../../../behaviour/rules.ts";
import type { Answer } from "../../../sandbox/server.ts";
import {
  areaOf,
  bodyOf,
  family,
  isPoll,
  jobRoute,
  MODEL,
  named,
  notFound,
  omitted,
  replaced,
  rulesMatching,
  when,
  type CheckName,
  type Fault,
} from "./support.ts";

const POLLABLE = "job pollable through its id{example}";
const POLLS_MATCH = "every poll response matches the description{example}";
const RESULTS_ONCE = "result fields exactly once succeeded{example}";

/** The area whose poll route is /v1/<segment>/{id}. */
const areaNamed = (segment: string): AreaModel | undefined =>
  MODEL.areas.find((area) => areaOf(area.poll.path) === segment);

/** The sandbox's declared id fields, where the description shows none (the upscale route's). */
const { jobIdFields } = sandboxDeclaration(new Contract());

/** The first create of `area` whose response names the job's id, or the declaration does: the lifecycle check polls its jobs. */
const followedCreate = (area: AreaModel) =>
  area.createRoutes.find((route) => (route.idField ?? jobIdFields?.[route.label]) !== undefined);

/**
 * The areas a fault's run selects: the area, and images, whose jobs end within the poll timeout
 * (the lifecycle check follows jobs the description says outlast it, 3D's, only while others run).
 */
const withImages = (segment: string): string[] => [...new Set([segment, "images"])];

/** A poll of `area` that answered 200 with `status`. */
const polled = (area: AreaModel, status: string) => (answer: Answer, call: Call | undefined) =>
  isPoll(call) && call.op.path === area.poll.path && answer.status === 200 && bodyOf(answer).status === status;

/**
 * The rules of a family whose area's jobs the lifecycle check can follow: an area whose create
 * responses name no job id, in the description or the sandbox's declaration, is left out (no check
 * could call its poll route with a real id).
 */
const followedAreas = (pattern: RegExp) =>
  rulesMatching(pattern).flatMap((rule) => {
    const segment = pattern.exec(rule.id)![1]!;
    const area = areaNamed(segment);
    const create = area && followedCreate(area);
    return area && create ? [{ rule, segment, area, create }] : [];
  });

/** Per `<area>.poll` rule: the area's poll route is not mounted (404 for its own jobs' ids). */
export const UNMOUNTED_POLLS = family(
  followedAreas(/^([a-z0-9-]+)\.poll$/).map(({ rule, segment, area, create }) => [
    `poll-route-missing:${segment}`,
    {
      breaks: [rule.id],
      bug: `GET ${area.poll.path} is not mounted: it answers 404 for the ids its area's creates gave`,
      areas: withImages(segment),
      answer: when(
        (_answer, call) => isPoll(call) && call.op.path === area.poll.path,
        (answer, call, state) => replaced(answer, notFound(state, call!.op.path)),
      ),
    } satisfies Fault,
    named("lifecycle", POLLABLE, undefined, jobRoute(create, area)),
  ]),
);

/**
 * Per `resources.poll.<area>` rule: a succeeded job's result is misshapen. Where the description
 * names result fields, each comes nested in an object ({ url: … }); where it names none, the poll
 * answers the media itself, not the JSON job.
 */
export const MISSHAPEN_RESULTS = family(
  followedAreas(/^resources\.poll\.([a-z0-9-]+)$/).map(({ rule, segment, area, create }) => [
    `poll-result-misshapen:${segment}`,
    {
      breaks: [rule.id],
      bug:
        area.resultFields.length > 0
          ? `a succeeded ${segment} job's ${area.resultFields.join(" and ")} come nested as { url: … }`
          : `a succeeded ${segment} job's poll answers the video file (video/mp4), not the JSON job`,
      areas: withImages(segment),
      answer: when(polled(area, MODEL.jobStatus.success), (answer) =>
        area.resultFields.length > 0
          ? {
              ...answer,
              body: {
                ...bodyOf(answer),
                ...Object.fromEntries(area.resultFields.map((field) => [field, { url: bodyOf(answer)[field] }])),
              },
            }
          : { ...answer, headers: { ...answer.headers, "content-type": "video/mp4" } },
      ),
    } satisfies Fault,
    named("lifecycle", POLLS_MATCH, undefined, jobRoute(create, area)),
  ]),
);

const model3d = areaNamed("3d");
const create3d = model3d && followedCreate(model3d);
if (!model3d || !create3d) throw new Error("the description has no 3D area whose jobs can be followed");

const lipSync = areaNamed("lip-sync");
const createLipSync = lipSync && followedCreate(lipSync);
if (!lipSync || !createLipSync) throw new Error("the description has no lip-sync area whose jobs can be followed");

export const POLL_FAULTS = {
  "poll-without-status": {
    breaks: ["resources.poll.status-always-present"],
    bug: "a succeeded job's poll response leaves status out (the result fields are thought to say it)",
    areas: ["images"],
    answer: when(
      (answer, call, state) => isPoll(call) && bodyOf(answer).status === state.model.jobStatus.success,
      (answer) => ({ ...answer, body: omitted(bodyOf(answer), ["status"]) }),
    ),
  },
  "3d-files-deleted-at-once": {
    breaks: ["resources.poll.3d-files-deleted"],
    bug: "3D files are deleted as soon as the job ends: a succeeded 3D job's poll has no model_url or files",
    areas: withImages("3d"),
    answer: when(polled(model3d, MODEL.jobStatus.success), (answer) => ({
      ...answer,
      body: omitted(bodyOf(answer), model3d.resultFields),
    })),
  },
  "3d-files-left-out": {
    breaks: ["resources.poll.3d"],
    bug: "a succeeded 3D job's poll gives the GLB's model_url but leaves out files, the list of every produced format",
    areas: withImages("3d"),
    answer: when(polled(model3d, MODEL.jobStatus.success), (answer) => ({
      ...answer,
      body: omitted(bodyOf(answer), ["files"]),
    })),
  },
  "unnamed-result-left-out": {
    breaks: ["states.succeeded"],
    bug: "a succeeded lip-sync job's poll carries its status alone: the description names no result field, so none is sent",
    areas: withImages("lip-sync"),
    answer: when(polled(lipSync, MODEL.jobStatus.success), (answer) => ({
      ...answer,
      body: { status: bodyOf(answer).status },
    })),
  },
  "completion-not-pollable": {
    breaks: ["events.completion-by-polling", "service.poll-until-terminal"],
    bug: "the status routes answer 404 for every job: completion is only pushed to a webhook",
    areas: ["images"],
    answer: when(
      (_answer, call) => isPoll(call),
      (answer, call, state) => replaced(answer, notFound(state, call!.op.path)),
    ),
  },
} satisfies Record<string, Fault>;

export const POLL_CATCHES: Record<keyof typeof POLL_FAULTS, CheckName> = {
  "poll-without-status": named("lifecycle", POLLS_MATCH),
  "3d-files-deleted-at-once": named("lifecycle", POLLS_MATCH, undefined, jobRoute(create3d, model3d)),
  "3d-files-left-out": named("lifecycle", POLLS_MATCH, undefined, jobRoute(create3d, model3d)),
  "unnamed-result-left-out": named("lifecycle", RESULTS_ONCE, undefined, jobRoute(createLipSync, lipSync)),
  "completion-not-pollable": named("lifecycle", POLLABLE),
};
