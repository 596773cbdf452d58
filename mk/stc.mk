# The STC family (cmodel/stc_*.c, gen/stc_*_gen.c): committed modules (RTL
# under rtl/stc/) and sweep lists, one line per unit so that the units'
# fragments merge independently.
FAMILIES += stc
stc_MODS += stc_band_default stc_band_fpga
stc_SWEEP += tb/stc-band_sweep.txt
