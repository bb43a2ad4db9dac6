# kexp plot; run `gnuplot test_rmse_vs_kernel.features.gp` here to redraw test_rmse_vs_kernel.features.svg
set terminal svg size 860,520 dynamic noenhanced font 'sans,11'
set output 'test_rmse_vs_kernel.features.svg'
set title 'test_rmse against kernel.features (lowest over the other swept parameters)'
set xlabel 'kernel.features'
set ylabel 'test_rmse'
set key below
set grid
set format x '%g'
set format y '%g'
set logscale x
set logscale y
$line0 << EOD
16 0.10603301459738279
32 0.10603301459738279
64 0.10603301459738279
128 0.10603301459738279
256 0.10603301459738279
512 0.10603301459738279
1000 0.10603301459738279
1024 0.10603301459738279
2048 0.10603301459738279
EOD
$line1 << EOD
16 0.33671158104736004
32 0.12810118129341228
64 0.11206117308327852
128 0.10589286373387428
256 0.10553185265344855
512 0.10564900780340229
1000 0.10604939907814258
1024 0.10575645776985815
2048 0.10588412194859627
EOD
plot $line0 using 1:2 with linespoints title 'gaussian + kernel_ridge (dual)', \
     $line1 using 1:2 with linespoints title 'gaussian + primal_ridge (primal)'
