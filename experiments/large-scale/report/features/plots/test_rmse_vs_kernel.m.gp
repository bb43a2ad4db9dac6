# kexp plot; run `gnuplot test_rmse_vs_kernel.m.gp` here to redraw test_rmse_vs_kernel.m.svg
set terminal svg size 1000,642 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_rmse_vs_kernel.m.svg'
set title 'test RMSE against m: nystrom(gaussian) centres=uniform nystrom.map=none · primal_ridge (primal)'
set xlabel 'm (kernel.m)'
set ylabel 'test RMSE'
set grid
set format x '%g'
set format y '%g'
set bmargin 5
set label 100 'Points: one run each, so no bars.' at screen 0.01, screen 0.0218 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('250' 250, '1000' 1000)
$line0 << EOD
250 1.7340054591267067 1.7340054591267067 1.7340054591267067
1000 1.701324696429564 1.701324696429564 1.701324696429564
EOD
$line1 << EOD
250 1.5447753252484004 1.5447753252484004 1.5447753252484004
1000 1.4324819818502819 1.4324819818502819 1.4324819818502819
EOD
$line2 << EOD
250 1.32591391120046 1.32591391120046 1.32591391120046
1000 1.117635947482175 1.117635947482175 1.117635947482175
EOD
$line3 << EOD
250 1.2362374654907762 1.2362374654907762 1.2362374654907762
1000 1.0878021950152397 1.0878021950152397 1.0878021950152397
EOD
$line4 << EOD
250 1.1804805727604475 1.1804805727604475 1.1804805727604475
1000 1.0443554296605813 1.0443554296605813 1.0443554296605813
EOD
$line5 << EOD
250 1.217423911928324 1.217423911928324 1.217423911928324
1000 1.0230800934093571 1.0230800934093571 1.0230800934093571
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'n = 1250', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'n = 5000', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#009E73' title 'n = 20000', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#CC79A7' title 'n = 50000', \
     $line4 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 1 lc rgb '#E69F00' title 'n = 125000', \
     $line5 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#56B4E9' title 'n = 1250000'
