#!/usr/bin/env bash
# Installs the tools the project needs on Debian 12 (or reports what is missing).
#   scripts/install-deps.sh          install what is missing
#   scripts/install-deps.sh --check  exit 1 if anything is missing, install nothing
#   scripts/install-deps.sh --fuzz [--check]   only what make fuzz needs: clang
#                                    with libFuzzer (not needed by make test)
#   scripts/install-deps.sh --slurm [--check]  only what make slurm-selftest needs:
#                                    Slurm's controller, node daemon and clients,
#                                    and munge (docs/cluster.md)
#   scripts/install-deps.sh --bench [--check]  only what make bench adds: valgrind
#                                    (instructions per simulated cycle)
set -euo pipefail
fuzz=0 slurm=0 bench=0 check=0
for a in "$@"; do
  case "$a" in --fuzz) fuzz=1 ;; --slurm) slurm=1 ;; --bench) bench=1 ;; --check) check=1 ;;
    *) echo "install-deps: unknown option '$a'" >&2; exit 2 ;; esac
done
missing=()
have_cmd() { command -v "$1" >/dev/null 2>&1; }
if [ $slurm -eq 1 ]; then
  PATH=$PATH:/usr/sbin:/sbin  # the daemons
  pkgs=(slurmctld slurmd slurm-client munge)
  for t in slurmctld slurmd sbatch sinfo munged mungekey; do
    have_cmd "$t" || missing+=("$t")
  done
elif [ $bench -eq 1 ]; then
  pkgs=(valgrind)
  have_cmd valgrind || missing+=(valgrind)
elif [ $fuzz -eq 1 ]; then
  pkgs=(clang libclang-rt-dev)
  # clang, and its libFuzzer and sanitizer runtimes: a fuzz target links
  t=$(mktemp -d)
  printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n);\nint LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$t/f.c"
  have_cmd "${FUZZ_CC:-clang}" || missing+=(clang)
  [ ${#missing[@]} -gt 0 ] || "${FUZZ_CC:-clang}" -fsanitize=fuzzer,address,undefined "$t/f.c" -o "$t/f" >/dev/null 2>&1 ||
    missing+=(libfuzzer)
  rm -rf "$t"
else
  pkgs=(verilator yosys iverilog libcriterion-dev nextpnr-ice40 fpga-icestorm
        fpga-icestorm-chipdb z3 g++ make zlib1g-dev pkg-config gnuplot-nox)
  for t in verilator yosys iverilog nextpnr-ice40 icepack z3 g++ make pkg-config gnuplot; do
    have_cmd "$t" || missing+=("$t")
  done
  [ -f /usr/include/criterion/criterion.h ] || missing+=(criterion)
  [ -f /usr/include/zlib.h ] || missing+=(zlib)
  ls /usr/share/fpga-icestorm/chipdb/chipdb-8k.txt >/dev/null 2>&1 || \
    ls /usr/share/icestorm/chipdb-8k.txt >/dev/null 2>&1 || missing+=(icestorm-chipdb)
fi
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ $check -eq 1 ]; then
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
