#!/usr/bin/env bash
# The Debian package on a clean Debian 12 (issue 21, item 2), as root with a
# Debian mirror reachable:
#   1. cpack -G DEB in build/release (the release preset must be built);
#   2. debootstrap a minimal bookworm into a scratch folder: nothing of this
#      machine's packages, no perfci checkout;
#   3. there: apt-get install ./perfci_*.deb (apt resolves its Depends) and
#      g++; configure tests/fixtures/external_project with
#      find_package(perfci CONFIG) from /usr, build it, then
#      `perfci baseline update` and `perfci check` on it.
#   scripts/try-deb-on-debian12.sh [MIRROR]
# Prints each step; exits non-zero at the first that fails. The scratch root
# is removed at the end (PERFCI_KEEP_ROOT=1 keeps it).
set -euo pipefail
cd "$(dirname "$0")/.."
mirror=${1:-http://deb.debian.org/debian}
[[ $(id -u) == 0 ]] || { echo "try-deb-on-debian12: needs root (debootstrap, chroot)" >&2; exit 2; }
built=build/release/perfci/cli/perfci
[[ -x $built ]] || { echo "try-deb-on-debian12: build the release preset first" >&2; exit 2; }
command -v debootstrap >/dev/null || apt-get install -y debootstrap

echo "== cpack -G DEB"
(cd build/release && cpack -G DEB >/dev/null)
deb=$(ls build/release/perfci_*_amd64.deb)
echo "package: $deb ($(du -h "$deb" | cut -f1))"

root=$(mktemp -d /tmp/perfci-debian12.XXXXXX)
cleanup() {
  umount "$root/proc" 2>/dev/null || true
  if [[ ${PERFCI_KEEP_ROOT:-0} != 1 ]]; then rm -rf "$root"; fi
}
trap cleanup EXIT
echo "== debootstrap bookworm (minbase) into $root"
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 ||
  { tail -20 "$root.debootstrap.log"; exit 1; }
mount -t proc proc "$root/proc"  # valgrind reads /proc/self
cp "$deb" "$root/tmp/"
mkdir -p "$root/tmp/project"
cp tests/fixtures/external_project/* "$root/tmp/project/"

echo "== in the clean root: apt-get install ./$(basename "$deb") g++"
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
  bash -euo pipefail -c '
    apt-get update -qq
    apt-get install -y -qq /tmp/perfci_*_amd64.deb g++ >/tmp/apt.log 2>&1 || { tail -30 /tmp/apt.log; exit 1; }
    echo "installed: $(dpkg-query -W -f="\${Package} \${Version}" perfci); $(perfci version)"
    cd /tmp/project
    cmake -B build -DCMAKE_BUILD_TYPE=Release | grep "perfci 0.1"
    cmake --build build >/dev/null
    echo "== perfci baseline update, then perfci check"
    perfci baseline update --build-dir build --no-build --reason "clean Debian 12, the .deb"
    perfci check --build-dir build --no-build
  '
echo "try-deb-on-debian12: the .deb installs on a clean Debian 12, find_package(perfci) links perfci::hook, perfci check passes there"
