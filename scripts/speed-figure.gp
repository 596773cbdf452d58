# figure-size: 1100,560
# The kit's lockstep speed figure (make figures, scripts/figures.py sets the
# terminal and datafile): instructions per simulated cycle of each unit's
# lockstep bench on its default configuration (results/speed.csv), the
# Verilated RTL's share and the rest (timing shell, stimulus, comparison)
# stacked; the line at 8,000 instructions is 1 M cycles a second on a core
# running 8 G instructions a second (measured on the 2-core machine under
# load: REC's 3,596 a cycle ran at 2.2 M cycles a second, the CoDec
# coalescer's 8,580 at 0.85-0.96 M).
set datafile separator comma
set datafile columnheaders
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set boxwidth 0.8
set grid ytics
set key top left
set xtics rotate by -45 scale 0
set ylabel "instructions per simulated cycle"
set yrange [0:*]
set title "Lockstep bench (model and Verilated RTL), default configuration, generated stream (callgrind)"
set arrow 1 from graph 0, first 8000 to graph 1, first 8000 nohead dt 2 lw 2 lc rgb "black"
plot datafile using 3:xtic(1) title "Verilated RTL" lc rgb "#0072b2", \
     datafile using 4 title "timing shell, stimulus, comparison" lc rgb "#e69f00", \
     NaN with lines dt 2 lw 2 lc rgb "black" title "8,000: 1 M cycles/s at 8 G instructions/s"
