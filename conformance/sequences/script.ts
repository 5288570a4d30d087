/**
 * A failing sequence as a user reads it: numbered requests, each with the target's answer and the
 * answers the model allowed side by side, the rules the failing step breaks, how to run it again
 * (`--seed`), and a runnable curl script. The script keeps every key as its variable
 * ($CONFORMANCE_API_KEY, ...), carries each created job's id on to the polls that follow, and waits
 * between steps as the run did.
 */
import { curl, type Transport } from "../http.ts";
import type { LoggedStep, SequenceFailure } from "./sequence.ts";

/** An answer's body cut to a readable length. */
const shown = (text: string, most = 240): string => (text.length > most ? `${text.slice(0, most - 1)}…` : text);

function requestLine(step: LoggedStep): string {
  const body = step.spec.body === undefined ? "" : ` ${shown(JSON.stringify(step.spec.body), 160)}`;
  return `${step.spec.method.toUpperCase()} ${step.spec.path} by ${step.party.name}${body}`;
}

/** The failure as numbered lines. */
export function describeFailure(failure: SequenceFailure, seed: number, shrunkFrom: number | undefined): string {
  const lines = [
    `sequence ${failure.sequence} failed at step ${failure.step.number} of ${failure.log.length}${shrunkFrom && shrunkFrom > failure.log.length ? ` (shrunk from ${shrunkFrom})` : ""}, seed ${seed}:`,
  ];
  for (const step of failure.log) {
    lines.push(`  ${step.number}. ${requestLine(step)}`);
    lines.push(`     target: ${step.exchange.status} ${shown(step.exchange.text.replace(/\s+/g, " "))}`);
    lines.push(
      `     model:  ${step.verdict.allowed.join(" | ") || "(no answer)"}${step.verdict.takenAs ? `  [taken as ${step.verdict.takenAs}]` : ""}`,
    );
  }
  lines.push(`  step ${failure.step.number}: ${failure.step.verdict.problems.join("; ")}`);
  lines.push(`  rules: ${failure.step.rules.join(", ")}`);
  lines.push(`  again: npm run conformance -- --seed ${seed} (with the same target and declaration)`);
  return lines.join("\n");
}

/** The sequence as a bash script of curl commands, job ids carried from creates to polls. */
export function curlScript(
  failure: SequenceFailure,
  transport: Transport,
  idFieldOf: (step: LoggedStep) => string | null,
): string {
  const lines = [
    "#!/usr/bin/env bash",
    "# The failing sequence, step by step; keys are read from the variables named.",
    "set -u",
  ];
  const variables = new Map<string, string>();
  let previous: number | undefined;
  for (const step of failure.log) {
    const gap = previous === undefined ? 0 : step.exchange.sentAt - previous;
    if (gap > 200) lines.push(`sleep ${(gap / 1000).toFixed(1)}`);
    previous = step.exchange.sentAt;
    let command = curl(transport, step.spec);
    for (const [id, variable] of variables) command = command.split(id).join(`'"$${variable}"'`);
    lines.push(`echo '# ${step.number}. ${requestLine(step).replace(/'/g, "")}'`);
    const field = idFieldOf(step);
    if (field && step.exchange.status === 200) {
      const id = String((step.exchange.json as Record<string, unknown>)[field]);
      const variable = `job${variables.size + 1}`;
      variables.set(id, variable);
      lines.push(
        `${variable}=$(${command.replace("curl -sS -i", "curl -sS")} | tee /dev/stderr | sed -n 's/.*"${field}": *"\\{0,1\\}\\([^",}]*\\).*/\\1/p')`,
      );
    } else lines.push(command);
  }
  return `${lines.join("\n")}\n`;
}
