# kexp plot; run `gnuplot cost_vs_n_gaussian.gp` here to redraw cost_vs_n_gaussian.svg
set terminal svg size 1000,767 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_gaussian.svg'
set title 'time against n: gaussian on friedman1'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 7
set label 100 'Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0756 left font ',12'
set label 101 '33 solver variants: a line per solver and choice of method, each point the mean time over the values of its numeric parameters,' at screen 0.01, screen 0.0469 left font ',12'
set label 102 'bars from the fastest to the slowest of them.' at screen 0.01, screen 0.0183 left font ',12'
set key above maxcols 2 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('800' 800, '3200' 3200)
set logscale x
set logscale y
$line0 << EOD
800 0.026648184999999998 0.014026081000000001 0.035654847999999996
3200 0.061588300500000005 0.028027124 0.074902246
EOD
$line1 << EOD
800 0.011938992 0.006963001999999999 0.014374098
3200 0.037062875625 0.017725728 0.046931601
EOD
$line2 << EOD
800 0.004846093299999999 0.002185083 0.029840521
3200 0.20435463129999998 0.105321344 1.086724704
EOD
$line3 << EOD
800 0.011089942750000002 0.005893373999999999 0.03676738500000001
3200 0.348764387 0.254114647 0.409148138
EOD
$line4 << EOD
800 0.0039509613999999995 0.003783826 0.005151043
3200 0.13392581025 0.13023772 0.138885632
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'falkon (dual) precision=double', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'falkon (dual) precision=mixed', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 2 lc rgb '#009E73' title 'kernel_ridge (dual) precision=double', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#CC79A7' title 'kernel_ridge (dual) precision=mixed', \
     $line4 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 2 lc rgb '#E69F00' title 'kernel_ridge (dual) precision=single'
