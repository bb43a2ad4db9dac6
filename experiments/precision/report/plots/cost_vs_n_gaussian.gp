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
800 0.014858117875 0.007973715000000001 0.025629924000000002
3200 0.04387553775 0.020847422 0.051861279999999996
EOD
$line1 << EOD
800 0.009413400749999998 0.005216939 0.014242181999999999
3200 0.042534029625 0.019821896000000002 0.055810682
EOD
$line2 << EOD
800 0.0034930191000000005 0.0015862939999999998 0.025330266
3200 0.21067222699999996 0.131230816 0.9216345380000001
EOD
$line3 << EOD
800 0.007063818249999999 0.003749985 0.017138311
3200 0.37448371329999997 0.285281054 0.450988508
EOD
$line4 << EOD
800 0.0031048624 0.002797219 0.003413386
3200 0.16882957825 0.164962454 0.176898112
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'falkon (dual) precision = double', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'falkon (dual) precision = mixed', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 2 lc rgb '#009E73' title 'kernel_ridge (dual) precision = double', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#CC79A7' title 'kernel_ridge (dual) precision = mixed', \
     $line4 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 2 lc rgb '#E69F00' title 'kernel_ridge (dual) precision = single'
