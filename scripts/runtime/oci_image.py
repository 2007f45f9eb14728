#!/usr/bin/env python3
"""Build a tiny OCI image from host files (Debian's static busybox by default) and push it to a
plain-HTTP registry.

Used by scripts/runtime.sh so that tests need neither docker nor internet access.

    oci_image.py present  --registry 127.0.0.1:5000 --repo busybox --tag latest
    oci_image.py build-push --registry 127.0.0.1:5000 --repo busybox --tag latest \
        --layout DIR [--entrypoint JSON] [--cmd JSON] [--busybox /bin/busybox]
    oci_image.py build-push --registry 127.0.0.1:5000 --repo etcd --tag 3.4 --no-busybox \
        --add /usr/bin/etcd:/usr/local/bin/etcd --add /lib64/ld-linux-x86-64.so.2:/lib64/ld-linux-x86-64.so.2

`--add SRC:DEST` copies a host file (symlinks followed, mode kept) into the image; the parent
directories are created. The build is deterministic (fixed mtimes, sorted entries, gzip without a
timestamp), so the same inputs always give the same digests. Only the standard library is used.
"""
import argparse
import gzip
import hashlib
import io
import json
import os
import subprocess
import sys
import tarfile
import urllib.error
import urllib.parse
import urllib.request

MANIFEST_TYPE = "application/vnd.oci.image.manifest.v1+json"
CONFIG_TYPE = "application/vnd.oci.image.config.v1+json"
LAYER_TYPE = "application/vnd.oci.image.layer.v1.tar+gzip"
INDEX_TYPE = "application/vnd.oci.image.index.v1+json"
PATH_ENV = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
# Fixed timestamp: identical inputs must produce identical digests.
EPOCH = 0

PASSWD = "root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n"
GROUP = "root:x:0:\nnobody:x:65534:\n"
DIRS = {
    "bin": 0o755, "sbin": 0o755, "usr": 0o755, "usr/bin": 0o755, "usr/sbin": 0o755,
    "etc": 0o755, "root": 0o700, "tmp": 0o1777, "var": 0o755, "var/tmp": 0o1777,
    "proc": 0o555, "sys": 0o555, "dev": 0o755, "home": 0o755,
}


def sha256(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def applet_paths(busybox: str) -> list[str]:
    """Every applet path the binary knows (bin/sh, usr/bin/env, ...), as relative paths."""
    out = subprocess.run([busybox, "--list-full"], check=True, capture_output=True, text=True).stdout
    paths = []
    for line in out.split():
        line = line.strip().lstrip("/")
        # Only the usual bin directories; skip linuxrc and the binary itself.
        if line.split("/")[0] in ("bin", "sbin", "usr") and line != "bin/busybox":
            paths.append(line)
    return sorted(set(paths))


def parent_dirs(path: str) -> list[str]:
    """usr/local/bin/etcd -> [usr, usr/local, usr/local/bin]"""
    parts = path.split("/")[:-1]
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]


def layer_tar(busybox: str | None, extra: list[tuple[str, str]]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        def add(info: tarfile.TarInfo, data: bytes | None = None) -> None:
            info.mtime = EPOCH
            info.uid = info.gid = 0
            info.uname = info.gname = "root"
            tar.addfile(info, io.BytesIO(data) if data is not None else None)

        dirs = dict(DIRS)
        for _, dest in extra:
            for d in parent_dirs(dest):
                dirs.setdefault(d, 0o755)
        for name in sorted(dirs):
            info = tarfile.TarInfo(name)
            info.type = tarfile.DIRTYPE
            info.mode = dirs[name]
            add(info)

        def add_file(src: str, dest: str, mode: int | None = None) -> None:
            with open(src, "rb") as f:
                data = f.read()
            info = tarfile.TarInfo(dest)
            info.mode = mode if mode is not None else os.stat(src).st_mode & 0o7777
            info.size = len(data)
            add(info, data)

        if busybox is not None:
            add_file(busybox, "bin/busybox", 0o755)
        for src, dest in sorted(extra, key=lambda e: e[1]):
            add_file(src, dest)
        for name, text in (("etc/passwd", PASSWD), ("etc/group", GROUP)):
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.mode = 0o644
            info.size = len(data)
            add(info, data)
        for path in applet_paths(busybox) if busybox is not None else []:
            info = tarfile.TarInfo(path)
            info.type = tarfile.SYMTYPE
            info.linkname = "/bin/busybox"
            info.mode = 0o777
            add(info)
    return buf.getvalue()


def gzip_bytes(data: bytes) -> bytes:
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=EPOCH, compresslevel=6) as gz:
        gz.write(data)
    return buf.getvalue()


def canonical(obj: object) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()


def build(busybox: str | None, extra: list[tuple[str, str]], entrypoint: list[str] | None,
          cmd: list[str] | None):
    """Returns (blobs by digest, manifest bytes)."""
    raw = layer_tar(busybox, extra)
    layer = gzip_bytes(raw)
    image_config: dict[str, object] = {"Env": [PATH_ENV], "WorkingDir": "/"}
    if entrypoint:
        image_config["Entrypoint"] = entrypoint
    if cmd:
        image_config["Cmd"] = cmd
    config = canonical({
        "architecture": "amd64",
        "os": "linux",
        "created": "1970-01-01T00:00:00Z",
        "config": image_config,
        "rootfs": {"type": "layers", "diff_ids": [sha256(raw)]},
        "history": [{"created": "1970-01-01T00:00:00Z",
                     "created_by": "kube-node scripts/runtime/oci_image.py from "
                                   + ("busybox-static" if busybox is not None else "host files")}],
    })
    manifest = canonical({
        "schemaVersion": 2,
        "mediaType": MANIFEST_TYPE,
        "config": {"mediaType": CONFIG_TYPE, "digest": sha256(config), "size": len(config)},
        "layers": [{"mediaType": LAYER_TYPE, "digest": sha256(layer), "size": len(layer)}],
    })
    blobs = {sha256(layer): layer, sha256(config): config, sha256(manifest): manifest}
    return blobs, manifest


def write_layout(directory: str, blobs: dict[str, bytes], manifest: bytes, ref: str) -> None:
    """An OCI image layout on disk (for `ctr images import` or skopeo, should anyone need it)."""
    blob_dir = os.path.join(directory, "blobs", "sha256")
    os.makedirs(blob_dir, exist_ok=True)
    for digest, data in blobs.items():
        with open(os.path.join(blob_dir, digest.split(":", 1)[1]), "wb") as f:
            f.write(data)
    with open(os.path.join(directory, "oci-layout"), "w") as f:
        f.write('{"imageLayoutVersion":"1.0.0"}')
    index = {
        "schemaVersion": 2,
        "mediaType": INDEX_TYPE,
        "manifests": [{
            "mediaType": MANIFEST_TYPE, "digest": sha256(manifest), "size": len(manifest),
            "annotations": {"org.opencontainers.image.ref.name": ref},
        }],
    }
    with open(os.path.join(directory, "index.json"), "wb") as f:
        f.write(canonical(index))


def request(method: str, url: str, data: bytes | None = None, headers: dict[str, str] | None = None):
    req = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, resp.headers, resp.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read()


def manifest_digest(registry: str, repo: str, tag: str) -> str | None:
    status, headers, _ = request("HEAD", f"http://{registry}/v2/{repo}/manifests/{tag}",
                                 headers={"Accept": MANIFEST_TYPE})
    return headers.get("Docker-Content-Digest") if status == 200 else None


def push_blob(registry: str, repo: str, digest: str, data: bytes) -> None:
    base = f"http://{registry}/v2/{repo}/blobs/"
    if request("HEAD", base + digest)[0] == 200:
        return
    status, headers, body = request("POST", base + "uploads/", data=b"")
    if status != 202:
        raise SystemExit(f"starting upload of {digest} to {repo}: HTTP {status} {body[:200]!r}")
    location = urllib.parse.urljoin(f"http://{registry}/", headers["Location"])
    sep = "&" if "?" in location else "?"
    status, _, body = request("PUT", f"{location}{sep}digest={urllib.parse.quote(digest)}", data=data,
                              headers={"Content-Type": "application/octet-stream"})
    if status != 201:
        raise SystemExit(f"uploading {digest} to {repo}: HTTP {status} {body[:200]!r}")


def push(registry: str, repo: str, tag: str, blobs: dict[str, bytes], manifest: bytes) -> str:
    digest = sha256(manifest)
    for blob_digest, data in blobs.items():
        if blob_digest != digest:
            push_blob(registry, repo, blob_digest, data)
    status, _, body = request("PUT", f"http://{registry}/v2/{repo}/manifests/{tag}", data=manifest,
                              headers={"Content-Type": MANIFEST_TYPE})
    if status != 201:
        raise SystemExit(f"pushing manifest {repo}:{tag}: HTTP {status} {body[:300]!r}")
    return digest


def json_list(text: str | None) -> list[str] | None:
    if text is None:
        return None
    value = json.loads(text)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SystemExit(f"expected a JSON list of strings, got {text!r}")
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["present", "build-push"])
    parser.add_argument("--registry", required=True)
    parser.add_argument("--repo", required=True)
    parser.add_argument("--tag", required=True)
    parser.add_argument("--layout")
    parser.add_argument("--entrypoint")
    parser.add_argument("--cmd")
    parser.add_argument("--busybox", default="/bin/busybox")
    parser.add_argument("--no-busybox", action="store_true", help="no busybox and applets in the image")
    parser.add_argument("--add", action="append", default=[], metavar="SRC:DEST",
                        help="copy a host file into the image (repeatable)")
    args = parser.parse_args()

    if args.action == "present":
        digest = manifest_digest(args.registry, args.repo, args.tag)
        if digest:
            print(digest)
        sys.exit(0 if digest else 1)

    extra = []
    for spec in args.add:
        src, sep, dest = spec.partition(":")
        dest = dest.strip("/")
        if not sep or not src or not dest:
            raise SystemExit(f"--add expects SRC:DEST, got {spec!r}")
        if not os.path.isfile(src):
            raise SystemExit(f"--add: {src} is not a file")
        extra.append((src, dest))
    blobs, manifest = build(None if args.no_busybox else args.busybox, extra,
                            json_list(args.entrypoint), json_list(args.cmd))
    if args.layout:
        write_layout(args.layout, blobs, manifest, args.tag)
    print(push(args.registry, args.repo, args.tag, blobs, manifest))


if __name__ == "__main__":
    main()
