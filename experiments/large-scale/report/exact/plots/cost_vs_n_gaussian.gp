# kexp plot; run `gnuplot cost_vs_n_gaussian.gp` here to redraw cost_vs_n_gaussian.svg
set terminal svg size 860,594 dynamic noenhanced font 'sans,11' background rgb 'white'
set output 'cost_vs_n_gaussian.svg'
set title 'time against n: gaussian on friedman1'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 7
set label 100 'cg_ridge: iterations=20, lambda=0.1, tolerance=1e-06' at screen 0.01, screen 0.0808 left font ',9'
set label 101 'kernel_ridge: lambda=0.1' at screen 0.01, screen 0.0505 left font ',9'
set label 102 'Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0202 left font ',9'
set key outside right top vertical
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set logscale x
set logscale y
$line0 << EOD
1000 0.055170907000000005 0.055159467000000004 0.055225532
4000 0.8908427745 0.888303225 0.892798509
16000 14.959583765 14.959583765 14.959583765
40000 78.38629974700001 78.38629974700001 78.38629974700001
100000 472.714131678 472.714131678 472.714131678
EOD
$line1 << EOD
1000 0.017663828 0.014854063999999998 0.030058788000000003
4000 0.445708497 0.44546840299999996 0.450209945
16000 18.091764932 18.091611633 18.094507660999998
40000 284.462397229 284.462397229 284.462397229
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'dual cg_ridge', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'dual kernel_ridge'
