# kexp plot; run `gnuplot test_rmse_vs_dataset.d.gp` here to redraw test_rmse_vs_dataset.d.svg
set terminal svg size 860,576 dynamic noenhanced font 'sans,11' background rgb 'white'
set output 'test_rmse_vs_dataset.d.svg'
set title 'test_rmse against dataset.d'
set xlabel 'dataset.d'
set ylabel 'test_rmse'
set grid
set format x '%g'
set format y '%g'
set bmargin 6
set label 100 'Each point: the cell with the lowest test_rmse over dataset.n, kernel.degree.' at screen 0.01, screen 0.0521 left font ',9'
set label 101 'Points: mean over up to 2 runs (the repeats); bars: ± one standard deviation.' at screen 0.01, screen 0.0208 left font ',9'
set key above maxcols 2 width 2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
$line0 << EOD
5 0.11247688609165715 0.1111668896754448 0.1137868825078695
10 0.1310590353067529 0.1299599670799116 0.1321581035335942
15 0.16015333707406956 0.15928901203554963 0.1610176621125895
EOD
$line1 << EOD
5 0.11247688609165714 0.11116688967544482 0.11378688250786946
10 0.1310590353067529 0.12995996707991153 0.13215810353359425
15 0.1601533370740696 0.15928901203554968 0.1610176621125895
EOD
$line2 << EOD
5 0.09871380823222867 0.09742239944900244 0.1000052170154549
10 0.10163185645139508 0.09910939133433432 0.10415432156845585
15 0.10782121144366293 0.10476028283210839 0.11088214005521746
EOD
$line3 << EOD
5 0.09871380823192133 0.09742239944971912 0.10000521701412354
10 0.10163185645214785 0.09910939133438086 0.10415432156991485
15 0.10782121144590953 0.10476028283137831 0.11088214006044075
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'polynomial · primal_gd (primal)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'polynomial · dual_gd (dual)', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#009E73' title 'polynomial · primal_ridge (primal)', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#CC79A7' title 'polynomial · kernel_ridge (dual)'
