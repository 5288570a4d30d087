import { labelPrefix, placeholderSlug } from "../../../model/labels.ts";
import type { Finding, HouseRule } from "../../finding.ts";
import { areas, createRoutes, pollRoutes } from "../../routes.ts";

const PREFIX = "/v1/";
const POLL_PARAMETER = "{id}";

const rule: HouseRule = {
  description:
    "Every route is under /v1, and a route belongs to the area of its tag's x-area: a create route has an x-model-label with the area's label prefix and sits at /v1/<segment>/<slug> (the label's slug, or the real slug MEDIA_SLUG_MAP substitutes); each area has one poll route, GET /v1/<segment>/{id}. Clients, cost tables and docs derive routes from these.",
  check: (doc, { slugMap }) => {
    const findings: Finding[] = [];
    for (const path of Object.keys(doc.paths)) {
      if (!path.startsWith(PREFIX)) {
        findings.push({
          path: ["paths", path],
          message: `Path "${path}" must start with ${PREFIX}: every route of the service is under the /v1 prefix. Rename it to ${PREFIX}${path.replace(/^\//, "")}.`,
        });
      }
    }
    const known = areas(doc);
    const tags = known.map((area) => area.tag).join(", ");
    for (const field of ["name", "labelPrefix", "segment"] as const) {
      const first = new Map<string, string>();
      for (const area of known) {
        const other = first.get(area[field]);
        if (other === undefined) first.set(area[field], area.tag);
        else
          findings.push({
            path: [...area.where, "x-area", field],
            message: `Tags ${other} and ${area.tag} both have x-area.${field} ${area[field]}: correct one, since routes, labels and operation ids tell areas apart by it.`,
          });
      }
    }
    for (const { path, method, where, label, area } of createRoutes(doc)) {
      const route = `${method.toUpperCase()} ${path}`;
      if (area === undefined) {
        findings.push({
          path: where,
          message: `${route} is a create route but carries no area's tag: set its tag to one of ${tags} (the tags with x-area), the area of its model.`,
        });
        continue;
      }
      if (label === undefined) {
        findings.push({
          path: where,
          message: `${route} is a create route but has no x-model-label: add the model's label from the specification (e.g. x-model-label: ${area.labelPrefix}-A).`,
        });
        continue;
      }
      if (labelPrefix(label) !== area.labelPrefix) {
        findings.push({
          path: [...where, "x-model-label"],
          message: `${route}: x-model-label "${label}" does not start with ${area.labelPrefix}-, the label prefix of its tag ${area.tag} (x-area): correct the label, or tag the route with its model's area.`,
        });
        continue;
      }
      const placeholder = placeholderSlug(label);
      const expected = `${PREFIX}${area.segment}/${slugMap[placeholder] ?? placeholder}`;
      if (path !== expected) {
        findings.push({
          path: where,
          message: `${route} (x-model-label ${label}, tag ${area.tag}) must be at ${expected}: a create path is /v1/<segment>/<slug>, with the segment of its tag's x-area and the slug of its label. Move the route, or correct its tag or x-model-label.`,
        });
      }
    }
    const polls = pollRoutes(doc);
    for (const { path, where, area } of polls) {
      if (area === undefined) {
        findings.push({
          path: where,
          message: `GET ${path} polls a job but carries no area's tag: set its tag to one of ${tags} (the tags with x-area), the area whose jobs it polls.`,
        });
        continue;
      }
      const expected = `${PREFIX}${area.segment}/${POLL_PARAMETER}`;
      if (path !== expected) {
        findings.push({
          path: where,
          message: `GET ${path} polls the jobs of ${area.tag} but is not GET ${expected}, the poll route of its tag's x-area: rename it.`,
        });
      }
    }
    for (const area of known) {
      // A poll route in the area's segment that lost its tag is reported above, not again here.
      const own = polls
        .filter(
          (poll) =>
            poll.area?.tag === area.tag || (poll.area === undefined && poll.path.split("/")[2] === area.segment),
        )
        .map((poll) => poll.path);
      if (own.length !== 1) {
        const found = own.length === 0 ? "no poll route" : `${own.length} poll routes (${own.join(", ")})`;
        findings.push({
          path: area.where,
          message: `Area ${area.tag} has ${found}: keep exactly one, GET ${PREFIX}${area.segment}/${POLL_PARAMETER} tagged ${area.tag}; the client polls every job of the area there.`,
        });
      }
    }
    return findings;
  },
};

export default rule;
