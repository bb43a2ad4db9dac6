# kexp plot; run `gnuplot test_rmse_vs_dataset.n.gp` here to redraw test_rmse_vs_dataset.n.svg
set terminal svg size 860,520 dynamic noenhanced font 'sans,11'
set output 'test_rmse_vs_dataset.n.svg'
set title 'test_rmse against dataset.n (lowest over the other swept parameters)'
set xlabel 'dataset.n'
set ylabel 'test_rmse'
set key below
set grid
set format x '%g'
set format y '%g'
set logscale x
set logscale y
$line0 << EOD
100 0.19006540553443746
200 0.20080821577496127
500 0.14348720128921527
1000 0.11578885963020524
2000 0.11753725563090496
4000 0.11374553393189746
8000 0.11247688609165714
EOD
$line1 << EOD
100 0.18692146443051996
200 0.11954104822630587
500 0.11606115624494509
1000 0.09871380823192133
2000 0.10109473866238637
4000 0.09994176974909433
8000 0.10028130526154896
EOD
$line2 << EOD
100 0.19006540553443746
200 0.20080821577496138
500 0.14348720128921524
1000 0.11578885963020527
2000 0.11753725563090495
4000 0.11374553393189746
8000 0.11247688609165715
EOD
$line3 << EOD
100 0.1869214644309023
200 0.11954104822628037
500 0.11606115624492347
1000 0.09871380823222867
2000 0.10109473866265023
4000 0.09994176974947036
8000 0.10028130526027387
EOD
plot $line0 using 1:2 with linespoints title 'polynomial + dual_gd (dual)', \
     $line1 using 1:2 with linespoints title 'polynomial + kernel_ridge (dual)', \
     $line2 using 1:2 with linespoints title 'polynomial + primal_gd (primal)', \
     $line3 using 1:2 with linespoints title 'polynomial + primal_ridge (primal)'
