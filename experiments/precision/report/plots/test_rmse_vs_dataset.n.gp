# kexp plot; run `gnuplot test_rmse_vs_dataset.n.gp` here to redraw test_rmse_vs_dataset.n.svg
set terminal svg size 1000,691 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_rmse_vs_dataset.n.svg'
set title 'test RMSE against n_train'
set xlabel 'n_train (training points)'
set ylabel 'test RMSE'
set grid
set format x '%g'
set format y '%g'
set bmargin 6
set label 100 'Each point: the cell with the lowest test_rmse over solver.lambda.' at screen 0.01, screen 0.0521 left font ',12'
set label 101 'Points: one run each, so no bars.' at screen 0.01, screen 0.0203 left font ',12'
set key above maxcols 2 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('800' 800, '1600' 1600, '3200' 3200)
set logscale x
$line0 << EOD
800 1.2106062363518517 1.2106062363518517 1.2106062363518517
1600 1.1031898785361332 1.1031898785361332 1.1031898785361332
3200 1.0919353158615104 1.0919353158615104 1.0919353158615104
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'gaussian · kernel_ridge (dual)'
