# kexp plot; run `gnuplot test_rmse_vs_kernel.seed.gp` here to redraw test_rmse_vs_kernel.seed.svg
set terminal svg size 860,520 dynamic noenhanced font 'sans,11'
set output 'test_rmse_vs_kernel.seed.svg'
set title 'test_rmse against kernel.seed (lowest over the other swept parameters)'
set xlabel 'kernel.seed'
set ylabel 'test_rmse'
set key below
set grid
set format x '%g'
set format y '%g'
set logscale y
$line0 << EOD
0 0.10603301459738279
1 0.10603301459738279
2 0.10603301459738279
3 0.10603301459738279
4 0.10603301459738279
5 0.10603301459738279
EOD
$line1 << EOD
0 0.10604939907814258
1 0.1057898322652464
2 0.10553185265344855
3 0.10581998672833008
4 0.10604371482726209
5 0.10592015885776396
EOD
plot $line0 using 1:2 with linespoints title 'gaussian + kernel_ridge (dual)', \
     $line1 using 1:2 with linespoints title 'gaussian + primal_ridge (primal)'
