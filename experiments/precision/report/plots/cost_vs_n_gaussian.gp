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
800 0.024020474125000003 0.01402248 0.033430965
3200 0.07494599362500001 0.027231803 0.093723099
EOD
$line1 << EOD
800 0.018288067 0.007108262000000001 0.027202395
3200 0.05002289125000001 0.020774049 0.066712936
EOD
$line2 << EOD
800 0.007481585299999999 0.0018581140000000001 0.064327818
3200 0.19607183875 0.041556632999999996 1.4622550920000001
EOD
$line3 << EOD
800 0.0117799674 0.004467886999999999 0.030912687
3200 0.3876707941 0.235977086 0.554309016
EOD
$line4 << EOD
800 0.004603831 0.0035164259999999996 0.012000723
3200 0.18553617475 0.157565028 0.22064165200000002
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'falkon (dual) precision = double', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'falkon (dual) precision = mixed', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 2 lc rgb '#009E73' title 'kernel_ridge (dual) precision = double', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#CC79A7' title 'kernel_ridge (dual) precision = mixed', \
     $line4 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 2 lc rgb '#E69F00' title 'kernel_ridge (dual) precision = single'
