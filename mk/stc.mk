FAMILIES += stc
# stc-bsq: blocked store queue (cmodel/stc_bsq*.c, gen/stc_bsq_gen.c)
stc_MODS += stc_bsq_default stc_bsq_fpga
stc_SWEEP += tb/stc-bsq_sweep.txt
