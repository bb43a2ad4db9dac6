# kexp plot; run `gnuplot test_rmse_vs_solver.iterations.gp` here to redraw test_rmse_vs_solver.iterations.svg
set terminal svg size 860,520 dynamic noenhanced font 'sans,11'
set output 'test_rmse_vs_solver.iterations.svg'
set title 'test_rmse against solver.iterations (lowest over the other swept parameters)'
set xlabel 'solver.iterations'
set ylabel 'test_rmse'
set key below
set grid
set format x '%g'
set format y '%g'
set logscale x
set logscale y
$line0 << EOD
1 0.43791557819496324
10 0.2831861985068744
100 0.13022036363774178
1000 0.11191403649422069
EOD
$line1 << EOD
1 0.43791557819496324
10 0.2831861985068744
100 0.1302203636377418
1000 0.11191403649422
EOD
plot $line0 using 1:2 with linespoints title 'polynomial + dual_gd (dual)', \
     $line1 using 1:2 with linespoints title 'polynomial + primal_gd (primal)'
