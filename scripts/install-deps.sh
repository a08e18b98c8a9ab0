#!/usr/bin/env bash
# Installs the Debian packages MotionBatch needs to build and test, when missing and running as root.
#   scripts/install-deps.sh            build + unit tests (libiio-dev; zlib1g-dev for .gz and .zip inputs;
#                                      libmosquitto-dev, and the Mosquitto broker and clients and openssl
#                                      for the fleet tests on 127.0.0.1; python3-jsonschema for the
#                                      JSON Schema test of the outputs, scripts/validate-json.py)
#   scripts/install-deps.sh --kernel   also the kernel-in-the-loop harness (QEMU, busybox, iiod, ...)
#   scripts/install-deps.sh --browser  also chromium (headless HTML report test)
#   scripts/install-deps.sh --package  also the packaging tools (dpkg-dev for dpkg-shlibdeps, lintian) and
#                                      what scripts/contrib-tests.sh uses (python3-seccomp, strace, man-db, udev, zsh, fish)
#   scripts/install-deps.sh --slurm    also Slurm and MUNGE for the single-node job-array test
#                                      (scripts/slurm-test.sh; the test starts its own daemons)
set -euo pipefail
pkgs=(libiio-dev libiio-utils zlib1g-dev pkg-config libmosquitto-dev mosquitto mosquitto-clients openssl python3-jsonschema)
for a in "$@"; do
  case "$a" in
    --kernel) pkgs+=(qemu-system-x86 busybox-static cpio kmod iiod udev) ;;
    --browser) pkgs+=(chromium) ;;
    --package) pkgs+=(dpkg-dev lintian systemd python3-seccomp strace man-db udev zsh fish) ;;
    --slurm) pkgs+=(slurmctld slurmd slurm-client munge) ;;
    *) echo "install-deps.sh: unknown option $a" >&2; exit 64 ;;
  esac
done
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "Missing Debian packages: ${missing[*]}" >&2
  echo "Install them with: sudo apt-get install --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
echo "Installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
