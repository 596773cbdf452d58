# figure-size: 1100,500
# DualOpt's figure (make figures, scripts/figures.py sets the terminal,
# datafile, paperfile): the mode the decision engine picks on the grid of
# remote ratio x block utilisation (results/dualopt.csv), one panel per L1
# hit rate, the paper's Table 1 thresholds (results/paper-dualopt.csv) drawn
# as lines.
set datafile separator comma
set datafile columnheaders
stats paperfile using (strcol(1) eq "remote_thresh" ? $3 : NaN) nooutput
rt = STATS_max
stats paperfile using (strcol(1) eq "block_thresh" ? $3 : NaN) nooutput
bt = STATS_max
set logscale x
set xrange [0.004:0.32]
set yrange [0:1.06]
set xtics ("0.005" 0.005, "0.01" 0.01, "0.02" 0.02, "0.04" 0.04, "0.08" 0.08, "0.16" 0.16, "0.25" 0.25)
set xlabel "remote ratio (remote accesses / accesses)"
set ylabel "block utilisation (words read / words of the line)"
set key outside right top
set arrow 1 from rt, graph 0 to rt, graph 1 nohead dt 2 lw 2 lc rgb "black"
set arrow 2 from graph 0, first bt to graph 1, first bt nohead dt 2 lw 2 lc rgb "black"
sel(h, m) = (abs($1 - h) < 1e-9 && $4 == m) ? $3 : NaN
set multiplot layout 1,2 title "DualOpt: decision engine mode (cohmodel dualopt-de --window 200; dashed: Table 1 thresholds)"
do for [h in "0.2 0.6"] {
  set title sprintf("L1 hit rate of remote reads %s", h)
  plot datafile using 2:(sel(h + 0, 0)) with points pt 5 ps 1.6 lc rgb "#999999" title "NONE", \
       datafile using 2:(sel(h + 0, 1)) with points pt 5 ps 1.6 lc rgb "#0072b2" title "COALESCE", \
       datafile using 2:(sel(h + 0, 2)) with points pt 5 ps 1.6 lc rgb "#e69f00" title "CACHE", \
       datafile using 2:(sel(h + 0, -1)) with points pt 4 ps 1.6 lc rgb "black" title "undecided"
}
unset multiplot
