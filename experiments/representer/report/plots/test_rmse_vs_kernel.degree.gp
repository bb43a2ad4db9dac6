# kexp plot; run `gnuplot test_rmse_vs_kernel.degree.gp` here to redraw test_rmse_vs_kernel.degree.svg
set terminal svg size 1000,713 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_rmse_vs_kernel.degree.svg'
set title 'test RMSE against degree'
set xlabel 'degree (kernel.degree)'
set ylabel 'test RMSE'
set grid
set format x '%g'
set format y '%g'
set bmargin 7
set label 100 'Each point: the cell with the lowest test_rmse over solver.iterations.' at screen 0.01, screen 0.0813 left font ',12'
set label 101 'Points: one run each, so no bars.' at screen 0.01, screen 0.0505 left font ',12'
set label 102 'Drawn over one another, with the same errors: polynomial · primal_gd (primal) and polynomial · dual_gd (dual).' at screen 0.01, screen 0.0196 left font ',12'
set key above maxcols 2 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('1' 1, '2' 2, '3' 3, '4' 4, '5' 5)
$line0 << EOD
1 0.46285607558406994 0.46285607558406994 0.46285607558406994
2 0.4628295139696062 0.4628295139696062 0.4628295139696062
3 0.11191403649422 0.11191403649422 0.11191403649422
4 0.15301692751992396 0.15301692751992396 0.15301692751992396
5 0.15574805861203134 0.15574805861203134 0.15574805861203134
EOD
$line1 << EOD
1 0.46285607558406994 0.46285607558406994 0.46285607558406994
2 0.46282951396960625 0.46282951396960625 0.46282951396960625
3 0.11191403649422069 0.11191403649422069 0.11191403649422069
4 0.1530169275199242 0.1530169275199242 0.1530169275199242
5 0.15574805861203142 0.15574805861203142 0.15574805861203142
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'polynomial · primal_gd (primal)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'polynomial · dual_gd (dual)'
