# kexp plot; run `gnuplot test_rmse_vs_solver.lambda.gp` here to redraw test_rmse_vs_solver.lambda.svg
set terminal svg size 860,520 dynamic noenhanced font 'sans,11'
set output 'test_rmse_vs_solver.lambda.svg'
set title 'test_rmse against solver.lambda (lowest over the other swept parameters)'
set xlabel 'solver.lambda'
set ylabel 'test_rmse'
set key below
set grid
set format x '%g'
set format y '%g'
set logscale y
$line0 << EOD
0.001 0.09871380823192133
EOD
$line1 << EOD
0.001 0.09871380823222867
EOD
plot $line0 using 1:2 with linespoints title 'polynomial + kernel_ridge (dual)', \
     $line1 using 1:2 with linespoints title 'polynomial + primal_ridge (primal)'
