# kexp plot; run `gnuplot test_rmse_vs_kernel.degree.gp` here to redraw test_rmse_vs_kernel.degree.svg
set terminal svg size 860,520 dynamic noenhanced font 'sans,11'
set output 'test_rmse_vs_kernel.degree.svg'
set title 'test_rmse against kernel.degree (lowest over the other swept parameters)'
set xlabel 'kernel.degree'
set ylabel 'test_rmse'
set key below
set grid
set format x '%g'
set format y '%g'
set logscale y
$line0 << EOD
1 0.46285607558406994
2 0.46282951396960625
3 0.11191403649422069
4 0.1530169275199242
5 0.15574805861203142
EOD
$line1 << EOD
1 0.46285607558406994
2 0.4628295139696062
3 0.11191403649422
4 0.15301692751992396
5 0.15574805861203134
EOD
plot $line0 using 1:2 with linespoints title 'polynomial + dual_gd (dual)', \
     $line1 using 1:2 with linespoints title 'polynomial + primal_gd (primal)'
