FAMILIES += halcone
# halcone-tsu (cmodel/halcone/halcone_tsu*.c, gen/halcone/halcone_tsu_gen.c): sweep
# list (committed modules from the registry: halcone_MODS).
halcone_SWEEP += tb/halcone/halcone-tsu_sweep.txt
# the Verilated TSU at transaction level (tb/halcone/halcone_tsu_rtl.c), for system
# runs with the RTL substituted for the functional core
$(B)/test_all: $(B)/obj/tb/halcone/halcone_tsu_rtl.o
# halcone-cache: the cache timestamp unit (cmodel/halcone/halcone_cache*.c,
# gen/halcone/halcone_cache_gen.c); committed presets default (safe), paper and fpga.
halcone_SWEEP += tb/halcone/halcone-cache_sweep.txt
# halcone-system, halcone-gen: model-only tools (TOOL lines of
# cmodel/units.def; no RTL, nothing to verilate); their Criterion suites
# halcone_check, halcone_system, halcone_gen run with make test-halcone.
# the Verilated system (tb/halcone/halcone_vsys.c: TSUs and caches at their ports,
# timing shells or Verilated, tb/halcone/halcone_cache_rtl.c at transaction level):
# ./tb_halcone [--system ...] (the family hook)
halcone_TB_CPPFLAGS := -DTB_FAMILY_HOOK=halcone_tb_hook -DTB_FAMILY_HELP=halcone_tb_help
tb_halcone: $(B)/obj/tb/halcone/halcone_vsys.o $(B)/obj/tb/halcone/halcone_cache_rtl.o $(B)/obj/tb/halcone/halcone_tsu_rtl.o
$(B)/test_all: $(B)/obj/tb/halcone/halcone_vsys.o $(B)/obj/tb/halcone/halcone_cache_rtl.o
$(B)/obj/tb/tb_halcone.o: mk/halcone.mk
