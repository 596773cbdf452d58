# figure-size: 1100,500
# DualOpt's traffic figure (make figures, scripts/figures.py sets the
# terminal and datafile): link bytes and link flits relative to the
# baseline per kernel kind (results/dualopt-traffic.csv: four rows a kernel,
# one a mode, in the order none, coalesce, cache, auto), a group of bars a
# kernel kind.
set datafile separator comma
set datafile columnheaders
set style fill solid 0.8 border -1
set boxwidth 0.9
set grid ytics
set key top left
set xrange [-1:15]
set offsets 0, 0, graph 0.1, 0
xpos(v) = int(column(0) / 4) * 5 + v
sel(c, v) = (strcol(2) eq v) ? column(c) : NaN
modes = "none coalesce cache auto"
set multiplot layout 1,2 title "DualOpt: inter-GPU link traffic per kernel kind and mode (./tb_dualopt --gpu --c-only, 4 GPUs, seeds 1-3)"
set title "link bytes (both directions)"
set ylabel "kB"
plot datafile using (xpos(1.5)):(strcol(2) eq "none" ? 0 : NaN):xtic(strcol(1)) with points pt -1 notitle, \
  for [i = 1:4] datafile using (xpos(i - 1)):(sel(3, word(modes, i)) / 1000) with boxes title word(modes, i)
set title "link flits, % of the baseline (none)"
set ylabel "% of none"
set yrange [0:175]
plot datafile using (xpos(1.5)):(strcol(2) eq "none" ? 0 : NaN):xtic(strcol(1)) with points pt -1 notitle, \
  for [i = 1:4] datafile using (xpos(i - 1)):(sel(10, word(modes, i))) with boxes title word(modes, i)
unset multiplot
