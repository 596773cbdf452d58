# figure-size: 900,540
# REC's figure (make figures, scripts/figures.py sets the terminal, datafile,
# paperfile): coalesced lines per evicted entry against the coalescing range
# per kernel-like stream (results/rec.csv), the paper's Fig. 12 averages
# (results/paper-rec.csv) marked. A range that evicted nothing is left out.
set datafile separator comma
set datafile columnheaders
set title "REC: coalesced lines per evicted entry (cohmodel rec --config fpga)"
set xlabel "coalescing range (bytes)"
set ylabel "coalesced lines per evicted entry"
set logscale xy 2
set xrange [90:5800]
set yrange [0.8:80]
set xtics ("128" 128, "256" 256, "512" 512, "1 k" 1024, "2 k" 2048, "4 k" 4096)
set ytics ("1" 1, "2" 2, "4" 4, "8" 8, "16" 16, "32" 32, "64" 64)
set grid
set key top left
sel(s) = (strcol(1) eq s && $4 > 0) ? $5 : NaN
plot for [s in "strided tiled stencil gather"] datafile using 2:(sel(s)) \
       with linespoints lw 2 pt 7 title s, \
     paperfile using 2:3 with points pt 5 ps 2 lc rgb "black" title "paper, Fig. 12 (mean)"
