# kexp plot; run `gnuplot test_rmse_vs_dataset.n.gp` here to redraw test_rmse_vs_dataset.n.svg
set terminal svg size 1000,718 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_rmse_vs_dataset.n.svg'
set title 'test RMSE against n_train: primal_ridge (primal)'
set xlabel 'n_train (training points)'
set ylabel 'test RMSE'
set grid
set format x '%g'
set format y '%g'
set bmargin 6
set label 100 'nystrom(gaussian) centres=uniform nystrom.map=none: the cell with the lowest test_rmse over kernel.m at each value.' at screen 0.01, screen 0.0501 left font ',12'
set label 101 'Points: one run each, so no bars.' at screen 0.01, screen 0.0195 left font ',12'
set key above maxcols 1 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('1000' 1000, '4000' 4000, '16000' 16000, '40000' 40000, '100000' 100000, '1000000' 1000000)
set logscale x
$line0 << EOD
1000 1.7814895760966671 1.7814895760966671 1.7814895760966671
4000 1.5580662887016217 1.5580662887016217 1.5580662887016217
16000 1.2451121014108832 1.2451121014108832 1.2451121014108832
40000 1.1729102687180282 1.1729102687180282 1.1729102687180282
100000 1.0887522562861824 1.0887522562861824 1.0887522562861824
1000000 1.0490570871802565 1.0490570871802565 1.0490570871802565
EOD
$line1 << EOD
1000 1.701324696429564 1.701324696429564 1.701324696429564
4000 1.4324819818502819 1.4324819818502819 1.4324819818502819
16000 1.117635947482175 1.117635947482175 1.117635947482175
40000 1.0878021950152397 1.0878021950152397 1.0878021950152397
100000 1.0443554296605813 1.0443554296605813 1.0443554296605813
1000000 1.0230800934093571 1.0230800934093571 1.0230800934093571
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'gaussian map=rff', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'nystrom(gaussian) centres=uniform nystrom.map=none'
