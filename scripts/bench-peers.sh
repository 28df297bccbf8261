#!/usr/bin/env bash
# bench-peers: the same workload (AGENTS agents x TURNS turns, one tool call per turn, durable
# store, 100 agents in flight on the peer's side) on the LangGraph.js harness (SqliteSaver) and on
# holon-actors (`bench turns`), back to back, then the ratio of their turns/s.
#
#   LANGGRAPH_HARNESS=/path/to/peers/langgraph scripts/bench-peers.sh
#   ROUNDS=3 ...   # alternate the two ROUNDS times and compare medians (default 1)
#
# The harness lives outside this repository: LANGGRAPH_HARNESS is its directory (it holds
# bench.mjs and package-lock.json); `npm ci` runs there when node_modules is missing.
# HOLON_BIN is the holon-actors binary (default: built into a temporary directory).
set -euo pipefail

: "${LANGGRAPH_HARNESS:?set LANGGRAPH_HARNESS to the LangGraph.js harness directory (holding bench.mjs)}"
AGENTS=${AGENTS:-1000}
TURNS=${TURNS:-5}
CONCURRENCY=${CONCURRENCY:-100}
ROUNDS=${ROUNDS:-1}
[ -f "$LANGGRAPH_HARNESS/bench.mjs" ] || { echo "bench-peers: $LANGGRAPH_HARNESS has no bench.mjs: point LANGGRAPH_HARNESS at the harness directory" >&2; exit 2; }
command -v node >/dev/null || { echo "bench-peers: node is missing (apt-get install -y nodejs npm)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
repo=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${HOLON_BIN:-}" ]; then
  (cd "$repo" && go build -o "$work/holon-actors" ./cmd/holon-actors)
  HOLON_BIN=$work/holon-actors
fi
if [ ! -d "$LANGGRAPH_HARNESS/node_modules" ]; then
  (cd "$LANGGRAPH_HARNESS" && npm ci --no-audit --no-fund >&2)
fi
export LANGCHAIN_TRACING_V2=false LANGSMITH_TRACING=false LANGCHAIN_TRACING=false

# field FILE NAME prints the number NAME of the JSON object in FILE.
field() { node -e 'const o=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));console.log(o[process.argv[2]])' "$1" "$2"; }

peer=() ours=()
for round in $(seq 1 "$ROUNDS"); do
  rm -f "$work/peer.sqlite"*
  (cd "$LANGGRAPH_HARNESS" && node bench.mjs many --db "$work/peer.sqlite" --threads "$AGENTS" --turns "$TURNS" \
    --concurrency "$CONCURRENCY") > "$work/peer.json"
  "$HOLON_BIN" --json bench turns --dir "$work/holon" --agents "$AGENTS" --turns "$TURNS" > "$work/ours.json"
  rm -rf "$work/holon"
  peer+=("$(field "$work/peer.json" turns_per_s)")
  ours+=("$(field "$work/ours.json" turns_per_sec)")
  echo "round $round: langgraph.js ${peer[-1]} turns/s, holon-actors ${ours[-1]} turns/s" >&2
done

node -e '
const med = a => { a = a.map(Number).sort((x, y) => x - y); const m = a.length >> 1; return a.length % 2 ? a[m] : (a[m-1] + a[m]) / 2; };
const [peer, ours] = [process.argv[1].split(" "), process.argv[2].split(" ")];
const p = med(peer), o = med(ours);
console.log(JSON.stringify({date_utc: new Date().toISOString(), workload: process.argv[3],
  langgraph_turns_per_s: +p.toFixed(1), holon_turns_per_s: +o.toFixed(1), ratio: +(o / p).toFixed(2),
  rounds: peer.length, langgraph_runs: peer.map(Number), holon_runs: ours.map(Number)}));
' "${peer[*]}" "${ours[*]}" "$AGENTS agents x $TURNS turns, one tool call each, durable store"
