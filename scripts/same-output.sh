#!/usr/bin/env bash
# Compares the output bytes and exit codes of two tailor binaries on every benchmark
# workload, the examples and the corpus under ../shared: the check a refactor that must not
# change behaviour is held to.
#
#   scripts/same-output.sh BASELINE_TAILOR [CANDIDATE_TAILOR]
#
# CANDIDATE defaults to target/release/tailor (built first). Prints one line per input and
# exits 1 if any output or exit code differs.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:?usage: scripts/same-output.sh BASELINE_TAILOR [CANDIDATE_TAILOR]}
cand=${2:-}
if [ -z "$cand" ]; then
  cargo build --release -q -p tailor -p tailor-bench
  cand=target/release/tailor
fi
gen=target/release/tailor-bench-gen
[ -x "$gen" ] || cargo build --release -q -p tailor-bench
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
inputs=()
for w in "full 2000" "noop 2000" "pairs 2000" "pairs-each 1000" "patches 2000" "fanout 200 20" \
  "small 2000" "small-flow 2000" "small-pyyaml 2000" "json-line 2000" "json-pretty 2000"; do
  set -- $w
  f="$work/$1-$2.yaml"
  "$gen" "$@" >"$f"
  inputs+=("$f")
done
for f in tests/fixtures/*.yaml tests/fixtures/templates/*.yaml tests/hostile/regressions/*.yaml; do
  [ -f "$f" ] && inputs+=("$f")
done
status=0
compare() { # name, then the command's arguments; stdin from $STDIN
  local name=$1; shift
  local a=0 b=0
  "$base" "$@" <"$STDIN" >"$work/a.out" 2>"$work/a.err" || a=$?
  "$cand" "$@" <"$STDIN" >"$work/b.out" 2>"$work/b.err" || b=$?
  if [ "$a" != "$b" ] || ! cmp -s "$work/a.out" "$work/b.out" || ! cmp -s "$work/a.err" "$work/b.err"; then
    echo "DIFFERS: $name (exit $a vs $b)"
    diff <(cat "$work/a.out" "$work/a.err") <(cat "$work/b.out" "$work/b.err") | head -20 || true
    status=1
  else
    echo "same: $name (exit $a, $(wc -c <"$work/a.out") bytes)"
  fi
}
for f in "${inputs[@]}"; do
  STDIN=$f compare "$f"
done
STDIN=/dev/null
for ex in examples/*/tailor.yaml; do
  dir=$(dirname "$ex")
  for m in "$dir"/manifests "$dir"; do
    [ -d "$m" ] || continue
    compare "$ex $m" "$ex" "$m"
    compare "$ex $m -o resource-list" "$ex" "$m" -o resource-list
    break
  done
done
# Standalone mode over a directory of small manifests (YAML files, then JSON ones): every
# output mode, --output-dir compared file by file.
compare_dir() { # name, output dir under $work, then the arguments before --output-dir
  local name=$1 out=$2; shift 2
  local a=0 b=0
  rm -rf "$work/$out.a" "$work/$out.b"
  "$base" "$@" --output-dir "$work/$out.a" >"$work/a.out" 2>"$work/a.err" || a=$?
  "$cand" "$@" --output-dir "$work/$out.b" >"$work/b.out" 2>"$work/b.err" || b=$?
  if [ "$a" != "$b" ] || ! cmp -s "$work/a.err" "$work/b.err" \
      || ! diff -r -q "$work/$out.a" "$work/$out.b" >/dev/null 2>&1; then
    echo "DIFFERS: $name (exit $a vs $b)"
    diff -r "$work/$out.a" "$work/$out.b" | head -20 || true
    status=1
  else
    echo "same: $name (exit $a, $(find "$work/$out.a" -type f 2>/dev/null | wc -l) files)"
  fi
}
# The default configuration (the built-in strip) too, which reads every object, and stages
# that change every object as it is read (commonMetadata; substitution, with a variable in
# every Deployment).
printf 'apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: strip\n' >"$work/strip.yaml"
printf 'apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: labels\nspec:\n  commonMetadata: {labels: {team: a}, annotations: {owner: b}}\n' >"$work/labels.yaml"
printf 'apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: substitute\nspec:\n  strip: {builtin: false}\n  postBuild: {substitute: {region: eu}}\n' >"$work/substitute.yaml"
for kind in yaml json; do
  d="$work/dir-$kind"
  "$gen" small-dir 400 "$d" $([ $kind = json ] && echo json)
  find "$d/manifests" -type f -exec sed -i 's|registry.example.com/web:|registry.example.com/web-${region}:|' {} +
  for cfg in "$d/tailor.yaml" "$work/strip.yaml" "$work/labels.yaml" "$work/substitute.yaml"; do
    c=$(basename "$cfg" .yaml)
    compare "small-dir $kind $c" "$cfg" "$d/manifests"
    compare "small-dir $kind $c -o resource-list" "$cfg" "$d/manifests" -o resource-list
    compare_dir "small-dir $kind $c --output-dir" "out-$kind-$c" "$cfg" "$d/manifests"
  done
done
STDIN=$work/small-2000.yaml compare "small-2000 from stdin, standalone" "$work/dir-yaml/tailor.yaml" -
STDIN=$work/small-flow-2000.yaml compare "small-flow-2000 from stdin, standalone -o resource-list" \
  "$work/dir-yaml/tailor.yaml" - -o resource-list
STDIN=/dev/null
if [ -d ../shared/corpus ]; then
  for d in ../shared/corpus/roundtrip/*/ ../shared/corpus/lists ../shared/corpus/fleet-examples/multi-cluster/manifests; do
    compare "no config: $d" tests/fixtures/tailor-empty.yaml "$d" -o resource-list
  done
fi
exit $status
