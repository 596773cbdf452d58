# figure-size: 1200,800
# Spandex's figure (make figures, scripts/figures.py sets the terminal and
# datafile): messages and bytes per request type per configuration
# (results/spandex.csv: six preset rows a program, columns <type>_msgs and
# <type>_bytes in the order of scripts/spandex-presets.sh), on the `mixed`
# and `false-sharing` programs, stacked by request type.
set datafile separator comma
set datafile columnheaders
set style fill solid 0.85 border -1
set boxwidth 0.7
set grid ytics
set key outside right top
set offsets 0.5, 0.5, graph 0.05, 0
set xtics scale 0 rotate by -30
types = "ReqV ReqS ReqWT ReqO ReqWT+data ReqO+data ReqWB Probe"
# cumulative count of the first k types of a row (messages: off 3, bytes: off 4)
cum(k, off) = sum [j = 1:k] column(off + 2 * (j - 1))
pick(prog, k, off) = (strcol(1) eq prog) ? cum(k, off) : NaN
set multiplot layout 2,2 title "Spandex: messages and bytes per request type (scripts/spandex-presets.sh --no-cycles: cohmodel spandex-system + spandex-check --drf)"
do for [prog in "false-sharing mixed"] {
  do for [off in "3 4"] {
    set title sprintf("%s, program %s", off eq "3" ? "messages" : "bytes", prog)
    set ylabel (off eq "3" ? "messages" : "bytes")
    plot datafile using (int(column(0)) % 6):(strcol(1) eq "mixed" ? 0 : NaN):xtic(strcol(2)) with points pt -1 notitle, \
      for [k = 8:1:-1] datafile using (int(column(0)) % 6):(pick(prog, k, off + 0)) with boxes title word(types, k)
  }
}
unset multiplot
