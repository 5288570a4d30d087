# The steps of .ci/run (sourced by it; tests/scripts/ci-steps.e2e.ts runs them on their own).
# Each step's time and CPU (user + sys; 200% is both cores busy the whole step), so that a run over
# its budget of 25 minutes says where the time went, and which steps wait rather than compute.
step() {
  local start=$SECONDS TIMEFORMAT="%U s user + %S s sys, %P%% CPU"
  local cpu
  { cpu=$( { time "$@" 1>&3 2>&4; } 2>&1 ); } 3>&1 4>&2
  echo "ci: '$*' took $((SECONDS - start)) s (${SECONDS} s in all), ${cpu}"
}
# Runs each named function in the background, its lines prefixed with its name as they come; fails
# when one of them failed, once all have ended (so that one lane's failure hides nothing of another's).
lanes() {
  local pids=() failed=0 name pid
  for name in "$@"; do
    # One subshell per lane, pipefail inside: a background pipeline that bash reaps while waiting on
    # another lane keeps only its last command's status (sed's, 0), which hid a failed lane in CI.
    (set -o pipefail; (set -euo pipefail; "$name") 2>&1 | sed -u "s/^/${name}| /") &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do
    wait "$pid" || failed=1
  done
  return $failed
}
