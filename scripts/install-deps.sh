#!/usr/bin/env bash
# Installs the tools the project needs on Debian 12 (or reports what is missing).
#   scripts/install-deps.sh          install what is missing
#   scripts/install-deps.sh --check  exit 1 if anything is missing, install nothing
set -euo pipefail
pkgs=(verilator yosys iverilog libcriterion-dev nextpnr-ice40 fpga-icestorm
      fpga-icestorm-chipdb z3 g++ make zlib1g-dev pkg-config)
missing=()
have_cmd() { command -v "$1" >/dev/null 2>&1; }
for t in verilator yosys iverilog nextpnr-ice40 icepack z3 g++ make pkg-config; do
  have_cmd "$t" || missing+=("$t")
done
[ -f /usr/include/criterion/criterion.h ] || missing+=(criterion)
[ -f /usr/include/zlib.h ] || missing+=(zlib)
ls /usr/share/fpga-icestorm/chipdb/chipdb-8k.txt >/dev/null 2>&1 || \
  ls /usr/share/icestorm/chipdb-8k.txt >/dev/null 2>&1 || missing+=(icestorm-chipdb)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "${1:-}" = "--check" ]; then
  echo "missing: ${missing[*]}"; exit 1
fi
echo "install-deps: missing ${missing[*]}; installing ${pkgs[*]}"
if [ "$(id -u)" -eq 0 ]; then SUDO=
elif have_cmd sudo && sudo -n true 2>/dev/null; then SUDO=sudo
else
  echo "install-deps: not root and no password-less sudo; install as root: apt-get install ${pkgs[*]}" >&2
  exit 1
fi
if ! have_cmd apt-get; then
  echo "install-deps: apt-get not found; install these packages by hand: ${pkgs[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null
echo "install-deps: done"
