#!/usr/bin/env bash
# `npm run build:deb`: the Debian package, dist/kube-node_<version>_<arch>.deb, built with dpkg-deb
# alone (no debhelper, no network). It holds the single executable (scripts/sea.mjs, rebuilt when
# older than the bundle) as /usr/bin/kube-node, contrib/kube-node.service pointed at it and at
# /etc/kube-node/config.yaml, that commented KubeletConfiguration as a conffile, an empty
# /etc/kubernetes/manifests, and the maintainer scripts and documents of packaging/deb.
# Needs `npm run build` first, and dpkg-dev (dpkg-shlibdeps) and binutils (strip).
set -euo pipefail
cd "$(dirname "$0")/.."
umask 022

die() { echo "deb: $*" >&2; exit 1; }

[ -f dist/kube-node.cjs ] || die "dist/kube-node.cjs is missing: run \`npm run build\` first"
for tool in dpkg-deb dpkg-shlibdeps; do
  command -v "$tool" >/dev/null || die "$tool is missing: apt-get install dpkg-dev"
done

version=$(node -p 'require("./package.json").version')
# npm's 1.0.0-rc.1 sorts before 1.0.0; Debian needs 1.0.0~rc.1 for that.
deb_version=${version//-/\~}
arch=$(dpkg --print-architecture)
node_arch=$(node -p 'process.arch')
exe=dist/kube-node-linux-$node_arch
changelog_version=$(sed -n '1s/^kube-node (\([^)]*\)).*/\1/p' packaging/deb/changelog)
[ "$changelog_version" = "$deb_version" ] || die "packaging/deb/changelog starts at $changelog_version, package.json says $deb_version: add an entry"

if [ ! -x "$exe" ] || [ "$exe" -ot dist/kube-node.cjs ] || [ "$exe" -ot packaging/sea/entry.cjs ] || [ "$exe" -ot scripts/sea.mjs ] || [ "$exe" -ot packaging/node/package-lock.json ]; then
  node scripts/sea.mjs
fi

stage=dist/deb
out=dist/kube-node_${deb_version}_${arch}.deb
rm -rf "$stage"
trap 'rm -rf "$stage"' EXIT
pkg=$stage/root
install -d -m 0755 "$pkg/DEBIAN" "$pkg/usr/bin" "$pkg/lib/systemd/system" "$pkg/etc/kube-node" \
  "$pkg/etc/kubernetes/manifests" "$pkg/usr/share/doc/kube-node" "$pkg/usr/share/man/man1" \
  "$pkg/usr/share/lintian/overrides"

install -m 0755 "$exe" "$pkg/usr/bin/kube-node"
# Readable by root only: it is the documented place for staticPodURLHeader credentials.
install -m 0600 packaging/deb/config.yaml "$pkg/etc/kube-node/config.yaml"
install -m 0644 packaging/deb/copyright "$pkg/usr/share/doc/kube-node/copyright"
gzip -9n <packaging/deb/changelog >"$pkg/usr/share/doc/kube-node/changelog.gz"
node packaging/deb/manpage.mjs | gzip -9n >"$pkg/usr/share/man/man1/kube-node.1.gz"
chmod 0644 "$pkg/usr/share/doc/kube-node/changelog.gz" "$pkg/usr/share/man/man1/kube-node.1.gz"
install -m 0644 packaging/deb/lintian-overrides "$pkg/usr/share/lintian/overrides/kube-node"

# The unit: the by-hand one with the package's paths and manual; its header says where it is from.
unit=$pkg/lib/systemd/system/kube-node.service
exec_hand='ExecStart=/usr/local/bin/kube-node watch /etc/kubernetes/manifests'
exec_pkg='ExecStart=/usr/bin/kube-node watch /etc/kubernetes/manifests --config /etc/kube-node/config.yaml'
grep -q "^$exec_hand " contrib/kube-node.service || die "contrib/kube-node.service no longer starts with '$exec_hand'"
{
  echo '# systemd unit for `kube-node watch`, from the kube-node package: keeps the static pods in'
  echo '# /etc/kubernetes/manifests running, configured by /etc/kube-node/config.yaml.'
  echo '# The package neither enables nor starts it: systemctl enable --now kube-node'
  sed -n '/^# kube-node stops cleanly/,$p' contrib/kube-node.service |
    sed -e "s|^$exec_hand|$exec_pkg|" -e '/^Description=/a Documentation=man:kube-node(1)'
} >"$unit"
chmod 0644 "$unit"
grep -q "^$exec_pkg " "$unit" || die "the unit's ExecStart was not rewritten"

for script in postinst prerm postrm; do
  install -m 0755 "packaging/deb/$script" "$pkg/DEBIAN/$script"
done
echo /etc/kube-node/config.yaml >"$pkg/DEBIAN/conffiles"

# The libraries the executable links (glibc, libstdc++), as dpkg-shlibdeps finds them here.
mkdir -p "$stage/shlibs/debian"
touch "$stage/shlibs/debian/control"
shlibs=$(cd "$stage/shlibs" && dpkg-shlibdeps -O -e "../root/usr/bin/kube-node" 2>"../shlibs.log") ||
  die "dpkg-shlibdeps failed: $(cat "$stage/shlibs.log")"
shlibs=${shlibs#shlibs:Depends=}
installed_size=$(du -s -k --exclude=DEBIAN "$pkg" | cut -f1)
sed -e "s/@VERSION@/$deb_version/" -e "s/@ARCH@/$arch/" -e "s/@INSTALLED_SIZE@/$installed_size/" \
  -e "s/@SHLIBS@/$shlibs/" packaging/deb/control >"$pkg/DEBIAN/control"
(cd "$pkg" && find . -type f ! -path './DEBIAN/*' -printf '%P\n' | LC_ALL=C sort | xargs md5sum) >"$pkg/DEBIAN/md5sums"
chmod 0644 "$pkg/DEBIAN/control" "$pkg/DEBIAN/conffiles" "$pkg/DEBIAN/md5sums"

dpkg-deb --build --root-owner-group "$pkg" "$out" >/dev/null
echo "deb: $out ($(du -m "$out" | cut -f1) MiB)"
