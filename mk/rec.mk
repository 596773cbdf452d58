# The REC family (cmodel/rec/rec*.c, gen/rec/rec_gen.c): its sweep lists (its
# committed modules, RTL under rtl/rec/, come from the registry: rec_MODS).
FAMILIES += rec
rec_SWEEP := tb/rec/rec_sweep.txt
# The model API the installed library must export (mk/lib.mk, docs/model-api.md).
LIB_REQUIRED += rec_cfg_preset rec_cfg_check rec_dir_new rec_dir_free rec_core_access \
                rec_tm_new rec_eval rec_step rec_trace_read
# make gate-sim (in make regress): the synthesized netlist of rec_fpga
GATE_SIM := rec fpga
# make mutate-sample (in make test): mutants of rec_fpga
MUTATE_SAMPLE_AT := rec fpga
