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
800 0.0208848955 0.010520021999999999 0.026818021
3200 0.08194319312500001 0.036013056 0.101551564
EOD
$line1 << EOD
800 0.011949589249999998 0.006818752 0.014466342
3200 0.035943810375 0.017086073 0.043497685
EOD
$line2 << EOD
800 0.0044314496 0.00205026 0.028961328
3200 0.18179244449999998 0.072472218 1.149045363
EOD
$line3 << EOD
800 0.01000837715 0.0057104949999999995 0.026324056999999998
3200 0.33610115370000004 0.218273632 0.430818046
EOD
$line4 << EOD
800 0.0031314042 0.0030064749999999998 0.003568268
3200 0.12284621074999999 0.121593145 0.124041099
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'falkon (dual) precision=double', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'falkon (dual) precision=mixed', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 2 lc rgb '#009E73' title 'kernel_ridge (dual) precision=double', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#CC79A7' title 'kernel_ridge (dual) precision=mixed', \
     $line4 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 2 lc rgb '#E69F00' title 'kernel_ridge (dual) precision=single'
