FAMILIES += stc
# stc-bsq: blocked store queue (cmodel/stc_bsq*.c, gen/stc_bsq_gen.c)
stc_MODS += stc_bsq_default stc_bsq_fpga
stc_SWEEP += tb/stc-bsq_sweep.txt
# stc-cu: per-CU epoch logic with its BSQ inline (cmodel/stc_cu*.c, gen/stc_cu_gen.c)
stc_MODS += stc_cu_default stc_cu_fpga
stc_SWEEP += tb/stc-cu_sweep.txt
