# kexp plot; run `gnuplot test_rmse_vs_kernel.order.gp` here to redraw test_rmse_vs_kernel.order.svg
set terminal svg size 860,520 dynamic noenhanced font 'sans,11'
set output 'test_rmse_vs_kernel.order.svg'
set title 'test_rmse against kernel.order (lowest over the other swept parameters)'
set xlabel 'kernel.order'
set ylabel 'test_rmse'
set key below
set grid
set format x '%g'
set format y '%g'
set logscale y
$line0 << EOD
1 0.10603301459738279
2 0.10603301459738279
3 0.10603301459738279
4 0.10603301459738279
5 0.10603301459738279
6 0.10603301459738279
7 0.10603301459738279
8 0.10603301459738279
9 0.10603301459738279
10 0.10603301459738279
11 0.10603301459738279
12 0.10603301459738279
13 0.10603301459738279
14 0.10603301459738279
EOD
$line1 << EOD
1 0.40528347886793786
2 0.4059797892638673
3 0.18993760966928883
4 0.10553185265344855
5 0.11703081687519064
6 0.11738575204896436
7 0.10705092035692414
8 0.10738591339893301
9 0.10630470617257459
10 0.10639203120624542
11 0.10609807632827879
12 0.10613163790756004
13 0.10604939907814258
14 0.10606011904883844
EOD
plot $line0 using 1:2 with linespoints title 'gaussian + kernel_ridge (dual)', \
     $line1 using 1:2 with linespoints title 'gaussian + primal_ridge (primal)'
