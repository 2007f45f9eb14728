#!/usr/bin/env python3
"""Patch the output of `containerd config default` (stdin) into the private instance's config (stdout).

    containerd config default | containerd_config.py ROOT STATE SOCKET SANDBOX_IMAGE CNI_CONF_DIR

Each change is a (section, key, value) triple; a key that is not found fails loudly, so a changed
default in a newer containerd shows up here instead of as a mysterious runtime failure.
"""
import json
import re
import sys

CRI = 'plugins."io.containerd.grpc.v1.cri"'


def main() -> None:
    root, state, socket, sandbox_image, cni_conf_dir = sys.argv[1:6]
    changes = {
        ("", "root"): root,
        ("", "state"): state,
        ("grpc", "address"): socket,
        # This kernel refuses a negative oom_score_adj; without this every sandbox fails in runc.
        (CRI, "restrict_oom_score_adj"): True,
        # registry.k8s.io is unreachable here: the pause image comes from the loopback registry.
        (CRI, "sandbox_image"): sandbox_image,
        # Keep pod network namespaces under our state dir so `down` finds and removes them.
        (CRI, "netns_mounts_under_state_dir"): True,
        (CRI + ".cni", "bin_dir"): "/usr/lib/cni",
        (CRI + ".cni", "conf_dir"): cni_conf_dir,
        ('plugins."io.containerd.internal.v1.opt"', "path"): root + "/opt",
    }
    section = ""
    done = set()
    out = []
    for line in sys.stdin.read().splitlines():
        header = re.match(r"^\s*\[(.+)\]\s*$", line)
        if header:
            section = header.group(1)
        else:
            kv = re.match(r"^(\s*)([A-Za-z0-9_]+)\s*=", line)
            if kv and (section, kv.group(2)) in changes:
                key = (section, kv.group(2))
                value = changes[key]
                text = "true" if value is True else json.dumps(value)
                line = f"{kv.group(1)}{kv.group(2)} = {text}"
                done.add(key)
        out.append(line)
    missing = [f"[{s}] {k}" for (s, k) in changes if (s, k) not in done]
    if missing:
        sys.exit("containerd default config lacks: " + ", ".join(missing))
    print("\n".join(out))


if __name__ == "__main__":
    main()
