#!/usr/bin/env bash
# Assembles the real-world YAML corpus (issue 19) from repositories the developer has fetched.
#
#   scripts/corpus.sh [GIT_DIR]...
#
# Each GIT_DIR is a git directory (a bare mirror such as /work/.mirror/istio+istio/repo, or a
# clone's .git). Without arguments the script takes the projects listed in PROJECTS below from
# $TAILOR_MIRROR_DIR (default /work/.mirror), as `owner+name/repo`, skipping those not there.
#
# From each repository's HEAD it extracts the plain `.yaml`/`.yml`/`.json` files into
# $TAILOR_CORPUS_DIR (default target/corpus) as `<project>/<path>`, where <project> is the
# repository's name. Left out: Helm and Go templates (any file holding `{{`, which covers
# charts' `templates/`), hidden paths (`.github/`, `.golangci.yml`: tooling, not manifests),
# symbolic links, vendored and node trees, JSON without "apiVersion" and "kind" (package.json,
# dashboards), empty files, files that are not UTF-8, and files over 4 MB. `MANIFEST.tsv`
# records each project's repository, commit, file count and bytes.
#
# Nothing here builds or runs fetched code; the corpus is data for tests/corpus_realworld.rs
# (TAILOR_CORPUS_DIR=$PWD/target/corpus cargo test --release --test corpus_realworld)
# and is never committed.
set -euo pipefail

PROJECTS=(
  argoproj+argo-cd
  istio+istio
  kyverno+kyverno
  knative+serving
  tektoncd+pipeline
  crossplane+crossplane
  kubernetes-sigs+gateway-api
  cert-manager+cert-manager
)

root="$(cd "$(dirname "$0")/.." && pwd)"
out="${TAILOR_CORPUS_DIR:-$root/target/corpus}"
mirror="${TAILOR_MIRROR_DIR:-/work/.mirror}"
max_bytes=$((4 * 1024 * 1024))

dirs=("$@")
if [ ${#dirs[@]} -eq 0 ]; then
  for p in "${PROJECTS[@]}"; do
    if [ -d "$mirror/$p/repo" ]; then
      dirs+=("$mirror/$p/repo")
    else
      echo "corpus: $mirror/$p/repo is not there (fetch github:${p/+//} first); skipped" >&2
    fi
  done
fi
[ ${#dirs[@]} -gt 0 ] || { echo "corpus: no repositories" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
printf 'project\trepository\tcommit\tfiles\tbytes\n' > "$out/MANIFEST.tsv"

for gd in "${dirs[@]}"; do
  gd="$(cd "$gd" && pwd)"
  # owner+name/repo (a mirror) or name/.git (a clone) or name.git (a bare clone).
  case "$gd" in
    */repo) base="$(basename "$(dirname "$gd")")" ;;
    */.git) base="$(basename "$(dirname "$gd")")" ;;
    *) base="$(basename "$gd" .git)" ;;
  esac
  project="${base#*+}"
  repo="${base/+//}"
  commit="$(git --git-dir="$gd" rev-parse HEAD)"
  # Candidate paths from the tree listing (no checkout): extension, no hidden segment, no
  # vendored tree, size within bounds.
  git --git-dir="$gd" ls-tree -r -z --long HEAD \
    | tr '\0' '\n' \
    | awk -F'\t' -v max="$max_bytes" '{
        split($1, a, " ");
        if (a[2] != "blob" || a[1] == "120000") next;
        size = a[4] + 0; path = $2;
        if (size == 0 || size > max) next;
        if (path !~ /\.(yaml|yml|json)$/) next;
        if (path ~ /(^|\/)\./) next;
        if (path ~ /(^|\/)(vendor|node_modules|third_party)\//) next;
        print a[3] "\t" path
      }' > "$tmp/$project.list"
  # One `cat-file --batch` for every listed blob (mirrors may lack blobs of other files, so
  # no `git archive`); then drop what is not a plain manifest.
  mkdir -p "$out/$project"
  cut -f1 "$tmp/$project.list" \
    | git --git-dir="$gd" cat-file --batch \
    | perl -e '
        my ($dir, $list) = @ARGV;
        open(my $l, "<", $list) or die;
        while (my $line = <$l>) {
          chomp $line;
          my ($blob, $path) = split /\t/, $line, 2;
          my $head = <STDIN>;
          die "corpus: short batch output\n" unless defined $head;
          my ($sha, $type, $size) = split / /, $head;
          if ($type ne "blob") { next; }
          my $data = "";
          read(STDIN, $data, $size) == $size or die "corpus: short blob $path\n";
          read(STDIN, my $nl, 1);
          my $to = "$dir/$path";
          (my $parent = $to) =~ s{/[^/]*$}{};
          system("mkdir", "-p", $parent) == 0 or die;
          open(my $o, ">", $to) or die "$to: $!";
          binmode $o; print $o $data; close $o;
        }' "$out/$project" "$tmp/$project.list"
  (
    cd "$out/$project"
    {
      # Templates (Helm, Go text/template).
      grep -rlZ -F '{{' . || true
      # Not UTF-8.
      LC_ALL=C.UTF-8 grep -rlaxvZ '.*' . || true
      # JSON that is not a KRM object.
      find . -name '*.json' -print0 | xargs -0r grep -LZ '"apiVersion"' || true
      find . -name '*.json' -print0 | xargs -0r grep -LZ '"kind"' || true
    } | sort -zu | xargs -0r rm -f
    find . -type d -empty -delete
  )
  count=$(find "$out/$project" -type f | wc -l)
  bytes=$(find "$out/$project" -type f -printf '%s\n' | awk '{s += $1} END {print s + 0}')
  printf '%s\t%s\t%s\t%s\t%s\n' "$project" "$repo" "$commit" "$count" "$bytes" >> "$out/MANIFEST.tsv"
  echo "corpus: $project ($repo@${commit:0:12}): $count files, $bytes bytes" >&2
done
echo "corpus: written to $out" >&2
