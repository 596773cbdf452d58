# The DualOpt family (cmodel/dualopt_*.c, gen/dualopt_*_gen.c): committed
# modules (RTL under rtl/dualopt/) and sweep lists, one line per unit so
# that units can be added independently.
FAMILIES += dualopt
dualopt_MODS += $(addprefix dualopt_coal_,default fpga gran8 gran16 gpus8 gpus16 timeout10 timeout50 paper_header)
dualopt_MODS += $(addprefix dualopt_decoal_,default fpga gran8 gran16 gpus8 gpus16 timeout10 timeout50 paper_header)
dualopt_SWEEP += tb/dualopt-coal_sweep.txt
dualopt_SWEEP += tb/dualopt-decoal_sweep.txt
dualopt_MODS += dualopt_codec_default dualopt_codec_fpga
dualopt_SWEEP += tb/dualopt-codec_sweep.txt
