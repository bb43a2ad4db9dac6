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
800 0.0208011895 0.011606690999999999 0.026380710999999998
3200 0.07291300349999999 0.028571267 0.10026315699999999
EOD
$line1 << EOD
800 0.012540981625000001 0.007132063 0.017566398
3200 0.038147021625 0.017612868 0.05079353
EOD
$line2 << EOD
800 0.004476439299999998 0.002170928 0.029548219
3200 0.16344721720000002 0.033517457 1.273107685
EOD
$line3 << EOD
800 0.0087116057 0.004821468 0.020465008
3200 0.2588663197 0.155005028 0.35980393400000005
EOD
$line4 << EOD
800 0.0038082986 0.0036098550000000004 0.005110128
3200 0.12957749000000002 0.127915224 0.133416972
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'falkon (dual) precision=double', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'falkon (dual) precision=mixed', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 2 lc rgb '#009E73' title 'kernel_ridge (dual) precision=double', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#CC79A7' title 'kernel_ridge (dual) precision=mixed', \
     $line4 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 2 lc rgb '#E69F00' title 'kernel_ridge (dual) precision=single'
