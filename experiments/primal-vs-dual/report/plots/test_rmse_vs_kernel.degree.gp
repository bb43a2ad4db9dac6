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
2 0.38318664038953065
3 0.11847844536085232
4 0.11247688609165714
EOD
$line1 << EOD
2 0.3832404063674141
3 0.09871380823192133
4 0.10076802101732106
EOD
$line2 << EOD
2 0.38318664038953065
3 0.11847844536085234
4 0.11247688609165715
EOD
$line3 << EOD
2 0.3832404063681878
3 0.09871380823222867
4 0.1007680210173226
EOD
plot $line0 using 1:2 with linespoints title 'polynomial + dual_gd (dual)', \
     $line1 using 1:2 with linespoints title 'polynomial + kernel_ridge (dual)', \
     $line2 using 1:2 with linespoints title 'polynomial + primal_gd (primal)', \
     $line3 using 1:2 with linespoints title 'polynomial + primal_ridge (primal)'
