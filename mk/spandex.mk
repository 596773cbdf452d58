# The Spandex family (cmodel/spandex/spandex_*.c, gen/spandex/spandex_*_gen.c):
# sweep list (the committed modules, RTL under rtl/spandex/, come from the
# registry: spandex_MODS).
FAMILIES += spandex
# spandex-llc: the LLC controller (cmodel/spandex/spandex_llc*.c,
# gen/spandex/spandex_llc_gen.c); committed presets default, paper, fpga, line.
spandex_SWEEP += tb/spandex/spandex-llc_sweep.txt
