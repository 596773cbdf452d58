# The STC family (cmodel/stc_*.c, gen/stc_*_gen.c): committed modules (RTL
# under rtl/stc/) and sweep lists, one line per unit so that the units'
# fragments merge independently.
FAMILIES += stc
# L1 controller (stc-l1)
stc_MODS += stc_l1_default stc_l1_fpga
stc_SWEEP += tb/stc-l1_sweep.txt
stc_MODS += stc_band_default stc_band_fpga
stc_SWEEP += tb/stc-band_sweep.txt
stc_MODS += stc_emu_default stc_emu_fpga
stc_SWEEP += tb/stc-emu_sweep.txt
