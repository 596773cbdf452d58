# figure-size: 900,540
# REC's storage figure (make figures, scripts/figures.py sets the terminal,
# datafile, paperfile): bits per directory entry against the coalescing
# range for 4, 8 and 16 GPUs as cohgen reports them (results/rec-bits.csv),
# the paper's Table 1 and section 4.3 values (results/paper-rec-bits.csv)
# marked.
set datafile separator comma
set datafile columnheaders
set title "REC: bits per directory entry (cohgen rec --report)"
set xlabel "coalescing range (bytes)"
set ylabel "bits per entry"
set logscale xy 2
set xrange [48:5800]
set yrange [28:1400]
set xtics ("64" 64, "128" 128, "256" 256, "512" 512, "1 k" 1024, "2 k" 2048, "4 k" 4096)
set ytics ("32" 32, "64" 64, "128" 128, "256" 256, "512" 512, "1024" 1024)
set grid
set key top left
sel(g, c) = ($1 == g) ? column(c) : NaN
gs = "4 8 16"
plot for [i = 1:3] datafile using 2:(sel(word(gs, i) + 0, 3)) with linespoints lw 2 pt 7 lc i \
       title sprintf("%s GPUs, paper accounting (= RTL entry from 128 B)", word(gs, i)), \
     for [i = 1:3] datafile using 2:(sel(word(gs, i) + 0, 4)) with lines dt 2 lw 1 lc i \
       title sprintf("%s GPUs, packed (no index bits)", word(gs, i)), \
     datafile using 2:(sel(4, 5)) with points pt 6 ps 1.5 lc rgb "black" title "4 GPUs, RTL entry", \
     paperfile using 2:3 with points pt 5 ps 1.8 lc rgb "#cc0000" title "paper: Table 1 (4 GPUs), 4.3 (8, 16 GPUs at 1 kB)"
