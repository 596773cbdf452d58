# The REC family (cmodel/rec/rec*.c, gen/rec/rec_gen.c): its sweep lists and
# FPGA variants (its committed modules, RTL under rtl/rec/, come from the
# registry: rec_MODS).
FAMILIES += rec
rec_SWEEP := tb/rec/rec_sweep.txt
# The model API the installed library must export (mk/lib.mk, docs/model-api.md).
LIB_REQUIRED += rec_cfg_preset rec_cfg_check rec_dir_new rec_dir_free rec_core_access \
                rec_tm_new rec_eval rec_step rec_trace_read
# make mutate-sample (in make test): mutants of rec_fpga
MUTATE_SAMPLE_AT := rec fpga
# make fpga: the self-test top (cohgen --selftest) around rec_fpga and around
# its two baselines at equal entry count (512 entries, 4 ways) and at equal
# storage (1024 entries, the power of two whose paper-accounting storage is
# closest to REC's 512 x 103 bits: baseline 1024 x 52, HMG 1024 x 44), each
# on both boards, its Fmax the median over three nextpnr seeds
# (docs/hardware-cost.md).
REC_FPGA_MODS := rec_fpga rec_fpga_line rec_fpga_hmg rec_fpga_line_eqs rec_fpga_hmg_eqs
FPGA_EXTRA_MODS += $(filter-out rec_fpga,$(REC_FPGA_MODS))
FPGA_CMD_rec_fpga_line     := rec --config baseline --entries 512 --ways 4 --store packed
FPGA_CMD_rec_fpga_hmg      := rec --config hmg --entries 512 --ways 4 --store packed
FPGA_CMD_rec_fpga_line_eqs := rec --config baseline --entries 1024 --ways 4 --store packed
FPGA_CMD_rec_fpga_hmg_eqs  := rec --config hmg --entries 1024 --ways 4 --store packed
$(foreach m,$(REC_FPGA_MODS),$(eval FPGA_DEVICES_$(m) := hx8k up5k)$(eval FPGA_PNR_SEEDS_$(m) := 1 2 3))
# make gatesim (in make regress): a stuck-port control of rec_fpga
GATESIM_CONTROLS += rec:fpga:control
