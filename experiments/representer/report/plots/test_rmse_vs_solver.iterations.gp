# kexp plot; run `gnuplot test_rmse_vs_solver.iterations.gp` here to redraw test_rmse_vs_solver.iterations.svg
set terminal svg size 1000,713 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_rmse_vs_solver.iterations.svg'
set title 'test RMSE against iterations'
set xlabel 'iterations (solver.iterations)'
set ylabel 'test RMSE'
set grid
set format x '%g'
set format y '%g'
set bmargin 7
set label 100 'Each point: the cell with the lowest test_rmse over kernel.degree.' at screen 0.01, screen 0.0813 left font ',12'
set label 101 'Points: one run each, so no bars.' at screen 0.01, screen 0.0505 left font ',12'
set label 102 'Drawn over one another, with the same errors: polynomial · primal_gd (primal) and polynomial · dual_gd (dual).' at screen 0.01, screen 0.0196 left font ',12'
set key above maxcols 2 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('1' 1, '10' 10, '100' 100, '1000' 1000)
set logscale x
$line0 << EOD
1 0.43791557819496324 0.43791557819496324 0.43791557819496324
10 0.2831861985068744 0.2831861985068744 0.2831861985068744
100 0.1302203636377418 0.1302203636377418 0.1302203636377418
1000 0.11191403649422 0.11191403649422 0.11191403649422
EOD
$line1 << EOD
1 0.43791557819496324 0.43791557819496324 0.43791557819496324
10 0.2831861985068744 0.2831861985068744 0.2831861985068744
100 0.13022036363774178 0.13022036363774178 0.13022036363774178
1000 0.11191403649422069 0.11191403649422069 0.11191403649422069
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'polynomial · primal_gd (primal)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'polynomial · dual_gd (dual)'
