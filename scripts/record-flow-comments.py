#!/usr/bin/env python3
"""Records go-yaml v3's reading and writing of comments inside flow collections, as kpt
writes them, for crates/tailor-yaml/tests/flow_comments.rs.

    scripts/record-flow-comments.py [KPT]

Each case of crates/tailor-yaml/tests/fixtures/flow-comments.cases.yaml (a `name` and the
`data:` block of a ConfigMap) is written into a package, `kpt fn source` reads and writes the
package (go-yaml's parser, then its emitter with kyaml's settings), and the `data:` block of
each written item becomes the case's `want`; kpt reads and writes `want` again for `again`
(go-yaml does not always write back what it wrote). The answers go to flow-comments.json beside the
cases, with the kpt version that gave them. Expected answers come from kpt, never from tailor.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crates", "tailor-yaml",
                    "tests", "fixtures")


def read_cases(path):
    """The cases file: `- name: N` lines, each followed by the case's lines indented by 4."""
    cases, name, lines = [], None, []
    for line in open(path, encoding="utf-8").read().split("\n"):
        if line.startswith("#") and name is None:
            continue
        if line.startswith("- name: "):
            if name is not None:
                cases.append((name, "\n".join(lines).rstrip("\n") + "\n"))
            name, lines = line[len("- name: "):].strip(), []
        elif name is not None:
            lines.append(line[4:] if line.startswith("    ") else line.lstrip(" "))
    if name is not None:
        cases.append((name, "\n".join(lines).rstrip("\n") + "\n"))
    return cases


def data_block(item_lines):
    """The `data:` block of an item kpt wrote, shifted left to column 0."""
    out, inside = [], False
    for line in item_lines:
        if line == "  data:":
            inside = True
        elif inside and line.startswith("  ") and not line.startswith("   ") and line.strip() \
                and not line.startswith("  #"):
            inside = False
        if inside:
            out.append(line[2:] if line.startswith("  ") else line)
    return "\n".join(out).rstrip("\n") + "\n"


def main():
    kpt = sys.argv[1] if len(sys.argv) > 1 else "kpt"
    cases = read_cases(os.path.join(HERE, "flow-comments.cases.yaml"))
    version = subprocess.run([kpt, "version"], capture_output=True, text=True).stdout.strip()
    wants = source_data_blocks(kpt, [src for _, src in cases])
    agains = source_data_blocks(kpt, wants)
    recorded = [{"name": name, "src": src, "want": want, "again": again}
                for (name, src), want, again in zip(cases, wants, agains)]
    with open(os.path.join(HERE, "flow-comments.json"), "w", encoding="utf-8") as f:
        json.dump({"recorded_with": f"kpt {version} (kpt fn source)", "cases": recorded}, f,
                  indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"{len(recorded)} cases recorded with kpt {version}")


def source_data_blocks(kpt, blocks):
    """The `data:` block kpt fn source writes for each `data:` block, in a ConfigMap each."""
    with tempfile.TemporaryDirectory() as tmp:
        for i, src in enumerate(blocks):
            with open(os.path.join(tmp, f"c{i:04}.yaml"), "w", encoding="utf-8") as f:
                f.write(f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c{i:04}\n" + src)
        out = subprocess.run([kpt, "fn", "source", tmp], capture_output=True, text=True,
                             check=True).stdout
    items, current = {}, None
    for line in out.split("\n"):
        if line.startswith("- apiVersion: "):
            current = []
        elif line.startswith("functionConfig:"):
            current = None
        if current is not None:
            current.append(line)
            if line.startswith("    name: c"):
                items[line.split("name: ")[1]] = current
    return [data_block(items[f"c{i:04}"]) for i in range(len(blocks))]


if __name__ == "__main__":
    main()
