# kexp plot; run `gnuplot test_rmse_vs_dataset.n.gp` here to redraw test_rmse_vs_dataset.n.svg
set terminal svg size 1000,664 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_rmse_vs_dataset.n.svg'
set title 'test RMSE against n_train'
set xlabel 'n_train (training points)'
set ylabel 'test RMSE'
set grid
set format x '%g'
set format y '%g'
set bmargin 6
set label 100 'nystrom(gaussian) centres=uniform nystrom.map=none · primal_ridge (primal): the cell with the lowest test_rmse over kernel.m at each value.' at screen 0.01, screen 0.0542 left font ',12'
set label 101 'Points: one run each, so no bars.' at screen 0.01, screen 0.0211 left font ',12'
set key above maxcols 2 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('1000' 1000, '4000' 4000, '16000' 16000, '40000' 40000, '100000' 100000, '1000000' 1000000)
set logscale x
$line0 << EOD
1000 1.8961831269051368 1.8961831269051368 1.8961831269051368
4000 1.4334904760139209 1.4334904760139209 1.4334904760139209
16000 1.2979170002393767 1.2979170002393767 1.2979170002393767
40000 1.1516148825546069 1.1516148825546069 1.1516148825546069
100000 1.090080804958487 1.090080804958487 1.090080804958487
1000000 1.047058763124682 1.047058763124682 1.047058763124682
EOD
$line1 << EOD
1000 1.8219945334756709 1.8219945334756709 1.8219945334756709
4000 1.304002133556217 1.304002133556217 1.304002133556217
16000 1.1599901163882447 1.1599901163882447 1.1599901163882447
40000 1.0603016295611978 1.0603016295611978 1.0603016295611978
100000 1.0483246104264288 1.0483246104264288 1.0483246104264288
1000000 1.020658018689347 1.020658018689347 1.020658018689347
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'gaussian map=rff · primal_ridge (primal)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'nystrom(gaussian) centres=uniform nystrom.map=none · primal_ridge (primal)'
