#!/usr/bin/env bash
# Compares tailor-yaml's parser at a base revision with the working tree's: every input's
# trees (values, styles, spans, comments) or error (message, line, column) must be the same.
# The check a change to the parser that must not change what it reads (a speed-up) is held to.
#
#   scripts/parser-diff.sh [BASE_REV] [N_MUTANTS]     (default HEAD~1 and 150000)
#
# Inputs: every .yaml/.yml/.json file under $TAILOR_CORPUS_DIR (default target/corpus, built by
# scripts/corpus.sh; skipped when absent), tests/fixtures/corpus-slice, and N_MUTANTS inputs made
# by inserting, deleting and replacing YAML's significant characters in snippets of those files
# and of small block and flow manifests (seeded: the same inputs on every run). Exits 1 and
# prints the first differing input when any differs.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
base_rev=${1:-HEAD~1}
mutants=${2:-150000}
work=$(mktemp -d "${TMPDIR:-/tmp}/parser-diff.XXXXXX")
cleanup() {
  git -C "$root" worktree remove --force "$work/base" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
git -C "$root" worktree add -q --detach "$work/base" "$base_rev"

# One small reader per revision: NUL-separated inputs in, each one's parse out.
for v in base new; do
  crate="$root/crates/tailor-yaml"
  [ "$v" = base ] && crate="$work/base/crates/tailor-yaml"
  mkdir -p "$work/reader-$v/src"
  cat >"$work/reader-$v/Cargo.toml" <<EOF
[package]
name = "parser-diff"
version = "0.0.0"
edition = "2021"
publish = false
[dependencies]
tailor-yaml = { path = "$crate" }
[workspace]
EOF
  cat >"$work/reader-$v/src/main.rs" <<'EOF'
use std::io::{Read, Write};
fn main() {
    let mut all = Vec::new();
    std::io::stdin().read_to_end(&mut all).expect("stdin");
    let mut out = std::io::BufWriter::new(std::io::stdout());
    for (i, chunk) in all.split(|&b| b == 0).enumerate() {
        let Ok(s) = std::str::from_utf8(chunk) else { continue };
        match tailor_yaml::parse_stream(s) {
            Ok(docs) => {
                for d in docs {
                    writeln!(out, "{i}: {:?} {:?}", d.root, d.span).expect("write");
                }
            }
            Err(e) => writeln!(out, "{i}: ERR {} {} {}", e.message, e.line, e.column).expect("write"),
        }
    }
}
EOF
  (cd "$work/reader-$v" && CARGO_TARGET_DIR="$work/target-$v" cargo build --release -q)
done

corpus=${TAILOR_CORPUS_DIR:-$root/target/corpus}
python3 - "$work/inputs.bin" "$mutants" "$corpus" "$root/tests/fixtures/corpus-slice" <<'EOF'
import os, random, sys
out_path, n, dirs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
random.seed(19)
files = sorted(os.path.join(dp, f) for d in dirs if os.path.isdir(d)
               for dp, _, fn in os.walk(d) for f in fn if f.endswith(('.yaml', '.yml', '.json')))
texts = [t for t in (open(f, 'rb').read() for f in files) if b'\0' not in t]
seeds = [
    '- {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":{"app":"web"}},"spec":{"replicas":2,"template":{"spec":{"containers":[{"name":"web","image":"r/web:1","ports":[{"containerPort":8080}]}]}}}}\n',
    'apiVersion: v1\nkind: Service\nmetadata:\n  name: web # c\n  labels:\n    app: web\n\n  # foot\nspec:\n  ports: [{port: 80, targetPort: 8080}]\n',
    'k: {x: a:, "y": [1, 2, "a b", \'c\'], z: {}}\na: "x\\ny"\nb: "p\\"q\\u00e9"\nc: plain text\n  continued\n',
]
for t in random.sample(texts, min(300, len(texts))):
    s = t.decode('utf-8', 'replace')
    i = random.randrange(0, max(1, len(s) - 1500))
    seeds.append(s[i:i + 1500])
marks = ['"', '\\', '\n', ' ', ':', '{', '}', '[', ']', ',', '#', '&', '!', '*', '-', '?', "'",
         '\t', '\r', '---', '...', 'a', '1', '\\u00e9', '\\x41', '\n  ', '\n- ', ': ', '|', '>']
with open(out_path, 'wb') as out:
    for t in texts:
        out.write(t + b'\0')
    for _ in range(n):
        s = random.choice(seeds)
        if len(s) > 600:
            i = random.randrange(0, len(s) - 400)
            s = s[i:i + random.randrange(20, 400)]
        s = list(s)
        for _ in range(random.randrange(1, 5)):
            op, at = random.random(), random.randrange(0, len(s) + 1)
            if op < 0.5:
                s.insert(at, random.choice(marks))
            elif s and op < 0.8:
                del s[min(at, len(s) - 1)]
            elif s:
                s[min(at, len(s) - 1)] = random.choice(marks)
        out.write(''.join(s).encode('utf-8', 'replace').replace(b'\0', b'') + b'\0')
print(f"{len(texts)} files, {n} mutants")
EOF
"$work/target-base/release/parser-diff" <"$work/inputs.bin" >"$work/base.txt"
"$work/target-new/release/parser-diff" <"$work/inputs.bin" >"$work/new.txt"
if cmp -s "$work/base.txt" "$work/new.txt"; then
  echo "same: every input reads the same at $base_rev and in the working tree"
  exit 0
fi
echo "DIFFERENT (first difference; the number is the input's index):"
diff "$work/base.txt" "$work/new.txt" | head -6 | cut -c1-400
exit 1
