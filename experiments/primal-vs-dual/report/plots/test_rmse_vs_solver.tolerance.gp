# kexp plot; run `gnuplot test_rmse_vs_solver.tolerance.gp` here to redraw test_rmse_vs_solver.tolerance.svg
set terminal svg size 860,520 dynamic noenhanced font 'sans,11'
set output 'test_rmse_vs_solver.tolerance.svg'
set title 'test_rmse against solver.tolerance (lowest over the other swept parameters)'
set xlabel 'solver.tolerance'
set ylabel 'test_rmse'
set key below
set grid
set format x '%g'
set format y '%g'
set logscale y
$line0 << EOD
0 0.11247688609165714
EOD
$line1 << EOD
0 0.11247688609165715
EOD
plot $line0 using 1:2 with linespoints title 'polynomial + dual_gd (dual)', \
     $line1 using 1:2 with linespoints title 'polynomial + primal_gd (primal)'
