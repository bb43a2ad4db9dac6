# kexp plot; run `gnuplot test_rmse_vs_dataset.d.gp` here to redraw test_rmse_vs_dataset.d.svg
set terminal svg size 860,520 dynamic noenhanced font 'sans,11'
set output 'test_rmse_vs_dataset.d.svg'
set title 'test_rmse against dataset.d (lowest over the other swept parameters)'
set xlabel 'dataset.d'
set ylabel 'test_rmse'
set key below
set grid
set format x '%g'
set format y '%g'
set logscale y
$line0 << EOD
5 0.11247688609165714
10 0.1310590353067529
15 0.1601533370740696
EOD
$line1 << EOD
5 0.09871380823192133
10 0.10163185645214785
15 0.10782121144590953
EOD
$line2 << EOD
5 0.11247688609165715
10 0.1310590353067529
15 0.16015333707406956
EOD
$line3 << EOD
5 0.09871380823222867
10 0.10163185645139508
15 0.10782121144366293
EOD
plot $line0 using 1:2 with linespoints title 'polynomial + dual_gd (dual)', \
     $line1 using 1:2 with linespoints title 'polynomial + kernel_ridge (dual)', \
     $line2 using 1:2 with linespoints title 'polynomial + primal_gd (primal)', \
     $line3 using 1:2 with linespoints title 'polynomial + primal_ridge (primal)'
