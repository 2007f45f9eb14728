#!/usr/bin/env python3
"""Delete the iptables rules and chains that CNI plugins made for one network name.

    iptables_cleanup.py NETWORK_NAME

The bridge (ipMasq) and portmap plugins tag every rule with a comment holding the network name
(`name: "NET" id: "..."`) and jump to per-container chains (CNI-xxx, CNI-DN-xxx). When containerd
is stopped without a CNI DEL for each sandbox, those stay behind; this removes exactly them and
leaves the shared chains (CNI-HOSTPORT-*) and everyone else's rules alone.
"""
import shlex
import shutil
import subprocess
import sys


def run(*args: str) -> None:
    subprocess.run(["iptables", "-w", *args], check=False, capture_output=True)


def clean_table(table: str, marker: str) -> int:
    saved = subprocess.run(["iptables-save", "-t", table], check=True, capture_output=True, text=True).stdout
    ours: list[list[str]] = []
    chains: set[str] = set()
    for line in saved.splitlines():
        if not line.startswith("-A "):
            continue
        words = shlex.split(line)
        # Match on the unquoted comment text, e.g. name: "NET" id: "...".
        if not any(marker in word for word in words):
            continue
        ours.append(words)
        if "-j" in words:
            target = words[words.index("-j") + 1]
            if target.startswith("CNI-") and not target.startswith("CNI-HOSTPORT-"):
                chains.add(target)
    # Rules inside per-container chains go with the chain; delete the jumps into them first.
    for words in ours:
        if words[1] not in chains:
            run("-t", table, "-D", *words[1:])
    for chain in sorted(chains):
        run("-t", table, "-F", chain)
        run("-t", table, "-X", chain)
    return len(ours)


def main() -> None:
    if shutil.which("iptables-save") is None:
        return
    marker = f'"{sys.argv[1]}"'
    removed = sum(clean_table(t, marker) for t in ("nat", "filter"))
    if removed:
        print(f"removed {removed} iptables rule(s) of CNI network {sys.argv[1]}", file=sys.stderr)


if __name__ == "__main__":
    main()
