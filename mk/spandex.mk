# The Spandex family (cmodel/spandex/spandex_*.c, gen/spandex/spandex_*_gen.c):
# sweep list (the committed modules, RTL under rtl/spandex/, come from the
# registry: spandex_MODS).
FAMILIES += spandex
# spandex-llc: the LLC controller (cmodel/spandex/spandex_llc*.c,
# gen/spandex/spandex_llc_gen.c); committed presets default, paper, fpga, line.
spandex_SWEEP += tb/spandex/spandex-llc_sweep.txt
# FPGA self-test (fpga/fpga.mk): spandex_llc_fpga on the HX8K, nextpnr seeds
# 1-3 (the median Fmax is reported)
FPGA_PNR_SEEDS_spandex_llc_fpga := 1 2 3
# spandex-tu: the translation unit (cmodel/spandex/spandex_tuhw*.c,
# gen/spandex/spandex_tu_gen.c); committed presets default, fpga (GPU
# coherence), denovo, denovo_fpga (DeNovo), mesi, mesi_fpga (MESI).
spandex_SWEEP += tb/spandex/spandex-tu_sweep.txt
# FPGA self-test: spandex_tu_fpga, spandex_tu_denovo_fpga and
# spandex_tu_mesi_fpga on the HX8K, nextpnr seeds 1-3
FPGA_PNR_SEEDS_spandex_tu_fpga := 1 2 3
FPGA_PNR_SEEDS_spandex_tu_denovo_fpga := 1 2 3
FPGA_PNR_SEEDS_spandex_tu_mesi_fpga := 1 2 3
# the cycle-level system (tb/spandex/spandex_vsys.c: the LLC at its ports, its
# timing shell or the Verilated spandex_llc_default beside it, with the C
# translation units or spandex-tu blocks of every kind (GPU, DeNovo, MESI) with
# an L1, tb/spandex/spandex_vsys_tu.c): ./tb_spandex [--system ...] (the family
# hook); the Criterion suites spandex_vsys* in tb/spandex/test_spandex_vsys*.c
spandex_TB_CPPFLAGS := -DTB_FAMILY_HOOK=spandex_tb_hook -DTB_FAMILY_HELP=spandex_tb_help
tb_spandex: $(B)/obj/tb/spandex/spandex_vsys.o $(B)/obj/tb/spandex/spandex_vsys_tu.o
$(B)/test_all: $(B)/obj/tb/spandex/spandex_vsys.o $(B)/obj/tb/spandex/spandex_vsys_tu.o
$(B)/obj/tb/tb_spandex.o: mk/spandex.mk
# make gatesim-generic: the LLC's default preset is left out. Its generic
# netlist (845,785 cells, 62 MB of Verilog) was still in Verilator after
# four CPU minutes, before any C++; without splitnets Verilator refused a
# line of more than 40,000 tokens (docs/verification.md, gate level). Its
# fpga preset's iCE40 netlist is in make gatesim.
GATESIM_GENERIC_SKIP += spandex-llc:default:generic
