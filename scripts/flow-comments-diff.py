#!/usr/bin/env python3
"""Differential check of comments inside flow collections against go-yaml v3, through the
binary: N generated ConfigMaps whose data hold flow sequences and mappings with head, line
and foot comments, blank lines and nesting, read and written by `kpt fn source` and by
`tailor CONFIG DIR -o resource-list` (a configuration that changes nothing). Counts the items
both write alike, and the files `kpt fn sink` writes alike from the two lists (what go-yaml
reads from tailor's text against what it reads from its own); lists the items of the files
that differ. Exits 1 when tailor refuses an input kpt reads or a sunk file differs.

    scripts/flow-comments-diff.py [N] [SEED] [TAILOR]

What differs on purpose (docs/differences.md), and so is not generated: go-yaml drops a
comment on the line of an opening bracket, a run of comments right below it that a blank line
follows, and the comments of an empty collection, which tailor keeps. (Where go-yaml writes a `,` or a `}` in column 0, tailor writes other bytes that
kpt fn sink reads the same.)
"""
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def scalar(r):
    return r.choice(["a", "b", "1", '"q"', "'s'", "x y", "-flag", "ko://img"])


def comment(r):
    return "# " + r.choice(["c", "note", "a longer comment", "- item", "k: v"])


def gap(r, indent, allow_line, quiet=False):
    """What may stand between two flow tokens: a line comment, lines of comments, blanks. A
    nested collection gets none: go-yaml's emitter writes some of those comments where its
    own parser refuses them (`, x]` after a foot comment), so kpt cannot read its own list."""
    out = ""
    if quiet:
        return out
    if allow_line and r.random() < 0.3:
        out += " " + comment(r)
    if r.random() < 0.5:
        for _ in range(r.randint(1, 3)):
            out += "\n"
            if r.random() < 0.25:
                out += "\n"
            if r.random() < 0.7:
                out += " " * indent + comment(r)
        out += "\n" + " " * indent
    elif out:
        out += "\n" + " " * indent
    return out


def flow(r, indent, depth):
    mapping = r.random() < 0.3
    n = r.randint(1, 4)
    parts = ["{" if mapping else "["]
    inner = indent + 2
    for i in range(n):
        if i == 0 and depth == 0 and r.random() < 0.4:
            # Head comments of the first entry, with no blank line under them: a run right
            # below the bracket that a blank line follows is dropped by go-yaml, and so is a
            # comment on the bracket's line; tailor keeps both (as the first entry's head).
            parts.append("".join("\n" + " " * inner + comment(r)
                                 for _ in range(r.randint(1, 2))) + "\n" + " " * inner)
        if depth < 2 and r.random() < 0.2:
            v = flow(r, inner, depth + 1)
        else:
            v = scalar(r)
        parts.append(f"k{i}: {v}" if mapping else v)
        # Written as people write them: the `,` right after the entry, then what stands
        # between two entries; the last entry may have one too.
        if i + 1 < n or r.random() < 0.2:
            parts.append("," + gap(r, inner, True, depth > 0))
        elif r.random() < 0.5:
            parts.append(gap(r, inner, True, depth > 0))
    parts.append("}" if mapping else "]")
    return "".join(parts)


def document(r, i):
    lines = ["apiVersion: v1", "kind: ConfigMap", "metadata:", f"  name: c{i}", "data:"]
    for k in range(r.randint(1, 3)):
        if r.random() < 0.25:
            lines.append(f"  s{k}:")
            lines.append("  - " + flow(r, 2, 0))
        else:
            lines.append(f"  f{k}: " + flow(r, 2, 0) + (" " + comment(r) if r.random() < 0.2 else ""))
        if r.random() < 0.3:
            lines.append("  " + comment(r))
            if r.random() < 0.5:
                lines.append("")
    return "\n".join(lines) + "\n"


def items(text):
    out, cur = [], None
    for line in text.split("\n"):
        if line.startswith("- "):
            cur = [line]
            out.append(cur)
        elif line.startswith("functionConfig:"):
            cur = None
        elif cur is not None:
            cur.append(line)
    return ["\n".join(c).rstrip() for c in out]


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    tailor = sys.argv[3] if len(sys.argv) > 3 else os.path.join(ROOT, "target/release/tailor")
    r = random.Random(seed)
    config = os.path.join(ROOT, "tests/fixtures/tailor-empty.yaml")
    with tempfile.TemporaryDirectory() as tmp:
        docs = [document(r, i) for i in range(n)]
        for i, d in enumerate(docs):
            with open(os.path.join(tmp, f"c{i:05}.yaml"), "w") as f:
                f.write(d)
        kpt = subprocess.run(["kpt", "fn", "source", tmp], capture_output=True, text=True)
        ours = subprocess.run([tailor, config, tmp, "-o", "resource-list"], capture_output=True,
                              text=True)
    if ours.returncode != 0:
        print("tailor failed:", ours.stderr[:2000])
        sys.exit(1)
    if kpt.returncode != 0:
        print("kpt failed:", kpt.stderr[:2000])
        sys.exit(1)
    a, b = items(kpt.stdout), items(ours.stdout)
    if len(a) != len(b):
        print(f"kpt wrote {len(a)} items, tailor {len(b)}")
        sys.exit(1)
    differ = [(x, y) for x, y in zip(a, b) if x != y]
    print(f"{len(a) - len(differ)} of {len(a)} items written alike (seed {seed})")
    theirs, mine = sink(a), sink(b)
    # A `}` go-yaml writes in column 0 can change how kpt reads the items after it in the
    # same list: an item that differs is sunk again alone.
    for i in [i for i in range(len(a)) if theirs[i] != mine[i]]:
        theirs[i], mine[i] = sink([a[i]], only=i)[0], sink([b[i]], only=i)[0]
    unread = [i for i in range(len(a)) if theirs[i] is None]
    files = [i for i in range(len(a)) if theirs[i] is not None and theirs[i] != mine[i]]
    print(f"{len(a) - len(unread) - len(files)} of {len(a) - len(unread)} files sunk alike; "
          f"kpt cannot read back what it wrote for {len(unread)}, tailor for "
          f"{sum(1 for m in mine if m is None)}")
    for i in files[:int(os.environ.get("SHOW", "3"))]:
        print(f"---- c{i:05}.yaml\n{docs[i]}---- kpt\n{a[i]}\n---- tailor\n{b[i]}")
    if files:
        sys.exit(1)


def sink(items_, chunk=100, only=None):
    """What `kpt fn sink` writes for each item, None where kpt refuses it (its own emitter
    writes some flow comments its parser refuses). Chunks, one by one where a chunk fails.
    `only`: the one item's number, when `items_` holds that item alone."""
    out = [None] * len(items_)

    def name(i):
        return f"c{only if only is not None else i:05}.yaml"

    def run(indexes):
        text = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" + "".join(
            items_[i] + "\n" for i in indexes)
        with tempfile.TemporaryDirectory() as d:
            done = subprocess.run(["kpt", "fn", "sink", os.path.join(d, "o")], input=text,
                                  text=True, capture_output=True)
            if done.returncode != 0:
                return False
            for i in indexes:
                p = os.path.join(d, "o", name(i))
                out[i] = open(p).read() if os.path.exists(p) else ""
        return True

    for start in range(0, len(items_), chunk):
        indexes = list(range(start, min(start + chunk, len(items_))))
        if not run(indexes):
            for i in indexes:
                run([i])
    return out


if __name__ == "__main__":
    main()
